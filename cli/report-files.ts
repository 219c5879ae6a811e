import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, extname } from 'node:path';
import { htmlReport } from '../conformance/report/html.js';
import { junitReport } from '../conformance/report/junit.js';
import type { Report } from '../conformance/types.js';

/** The report formats, by file extension: JSON, JUnit XML, HTML. */
const FORMATS = ['.json', '.xml', '.html'] as const;

/** Why a `--report` file name cannot be written, or null when its extension names a format. */
export function reportNameProblem(file: string): string | null {
  return FORMATS.includes(extname(file).toLowerCase() as (typeof FORMATS)[number])
    ? null
    : `--report ${file}: use a .json, .xml or .html file name`;
}

/** How a tool renders its report as JUnit XML and as HTML (JSON is the report itself). */
interface Renderers<R> {
  junit(report: R): string;
  html(report: R): string;
}

/** Writes a report in the format its extension names, rendered by the tool's own renderers. */
export function writeReportWith<R>(file: string, report: R, render: Renderers<R>): void {
  const ext = extname(file).toLowerCase();
  const text =
    ext === '.json'
      ? `${JSON.stringify(report, null, 2)}\n`
      : ext === '.xml'
        ? render.junit(report)
        : render.html(report);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Writes a report (of `opsapi conform` or `opsapi proxy`) in the format its extension names. */
export function writeReport(file: string, report: Report): void {
  writeReportWith(file, report, { junit: junitReport, html: htmlReport });
}
