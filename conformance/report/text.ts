import { textReport } from '../../common/report/text.js';
import type { Report } from '../types.js';
import { FAMILIES } from '../types.js';
import { verdictOf } from './run-verdict.js';

/** The grouped summary printed on stdout; colours only when asked (a TTY). */
export function textSummary(report: Report, colour: boolean): string {
  return textReport(
    report,
    {
      heading: `opsapi conform ${report.tool.version} (contract ${report.contractVersion}) against ${report.target}`,
      subheading: `${report.date}, ${(report.durationMs / 1000).toFixed(1)} s${report.mockAdmin ? ', mock admin API used (fresh tenant)' : ''}`,
      families: FAMILIES,
      verdict: verdictOf(report),
    },
    colour,
  );
}
