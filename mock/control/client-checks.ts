import type { ClientReport } from '../client-checks/report.js';
import { renderClientReport } from '../client-checks/report.js';
import { type ClientChecksStart, type ClientChecksStarted, startOptionsProblem } from '../client-checks/run.js';
import { endRun, runOf, startRun } from '../client-checks/tenants.js';
import type { MockServices } from '../http/services.js';

/** The formats of a report of client checks: the JSON object, or JUnit XML or HTML text. */
type ReportFormat = 'json' | 'junit' | 'html';

/** The client checks of one tenant, driven in-process (docs/DESIGN.md, "Client certification"; as `/__mock/client-checks`). */
export interface ClientChecksControl {
  /**
   * Starts (or restarts, forgetting what was observed) the checks of the tenant, seeding it on first use; throws a
   * RangeError on an option out of its bounds (a test's programming error, like a negative clock advance).
   */
  start(options?: ClientChecksStart): ClientChecksStarted;
  /** The report so far: the JSON object, or the JUnit or HTML text; null when no checks run for the tenant. */
  report(format?: 'json'): ClientReport | null;
  report(format: 'junit' | 'html'): string | null;
  /** Ends the checks and answers the final report; null when none ran. Seeds nothing. */
  stop(): ClientReport | null;
}

/** The report's target: the tenant (in-process, the mock has no address to name). */
const targetOf = (org: string) => `org ${org}`;

export function clientChecksControl({ store, clock }: MockServices, org: string): ClientChecksControl {
  function report(format?: 'json'): ClientReport | null;
  function report(format: 'junit' | 'html'): string | null;
  function report(format: ReportFormat = 'json'): ClientReport | string | null {
    const tenant = store.peek(org);
    const run = tenant ? runOf(tenant) : undefined;
    if (!run) return null;
    const built = run.report(clock.now(), targetOf(org));
    return format === 'json' ? built : renderClientReport(built, format).body;
  }
  return {
    start: (options = {}) => {
      const problem = startOptionsProblem(options);
      if (problem) throw new RangeError(`clientChecks.start: ${problem.detail}`);
      return startRun(store.tenant(org), options, clock.now()).started;
    },
    report,
    stop: () => {
      const tenant = store.peek(org);
      const run = tenant ? endRun(tenant) : undefined;
      return run ? run.report(clock.now(), targetOf(org)) : null;
    },
  };
}
