import { junitXml } from '../../common/report/junit.js';
import type { Report } from '../types.js';
import { FAMILIES } from '../types.js';
import { verdictOf } from './run-verdict.js';

/** JUnit XML: one testsuite per check family, one testcase per check. */
export function junitReport(report: Report): string {
  return junitXml(report, {
    families: FAMILIES,
    classPrefix: 'opsapi.conform',
    name: `opsapi conform ${report.target}`,
    verdict: verdictOf(report),
  });
}
