import { htmlPage } from '../../common/report/html.js';
import type { Verdict } from '../../common/report/types.js';
import type { Report } from '../types.js';
import { verdictOf } from './run-verdict.js';
import { trafficSection } from './traffic-html.js';

/** What the verdict means, for the reader of the report. */
function legend(report: Report, label: Verdict['label'], narrowed: boolean): string {
  if (report.traffic)
    return 'PASSED means that no exchange of the traffic violated a MUST rule (documented behaviour of the reference); FAILED that one did.';
  if (label === 'PASSED' || label === 'FAILED')
    return 'PASSED (exit 0) means that no MUST check (documented behaviour of the reference) failed or errored, FAILED (exit 1) that one did or the run proved too little; a certificate needs --certify.';
  if (narrowed)
    return 'A certificate needs every MUST check (documented behaviour of the reference) of the registry selected, run and passed: this run was narrowed by --only/--skip, so it certifies nothing, and its classes read PASSED or FAILED.';
  return 'CERTIFIED means that every MUST check (documented behaviour of the reference) of the registry was selected, ran and passed.';
}

/** The self-contained certification report: no external assets and no script. */
export function htmlReport(report: Report): string {
  return htmlPage(report, {
    title: 'opsapi conformance',
    heading: 'Operations Platform API conformance report',
    classesHeading: 'Conformance classes',
    targetLabel: 'Target',
    verdict: verdictOf(report),
    legend: (label, narrowed) =>
      `${legend(report, label, narrowed)} SHOULD checks cover behaviour the contract infers. Times are each check's own (time spent only waiting for a request slot is left out).`,
    sections: trafficSection(report),
  });
}
