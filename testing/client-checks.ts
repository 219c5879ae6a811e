import { Type } from '@sinclair/typebox';
import { evidenceLines } from '../common/report/evidence.js';
import type { CheckResult } from '../common/report/types.js';
import type { TenantControl } from '../mock/control/tenant.js';
import type { ClientReport } from '../mock/client-checks/report.js';
import { START_BOUNDS } from '../mock/client-checks/run.js';
import { checkObject, expects } from './check.js';

/** How client checks run (docs/DESIGN.md, "Client certification"); every field left out takes the mock's default. */
export interface ClientChecksOptions {
  /** `observe` (the mock's default) only watches; `certify` also perturbs: injected 429s, forged and duplicate deliveries. */
  readonly profile?: 'observe' | 'certify';
  /** The seed of the perturbations (default: drawn, and reported): the same seed, the same perturbations. */
  readonly seed?: number;
  /** The delay an injected 429 indicates, seconds (default 1). */
  readonly retryAfterSeconds?: number;
  /** How fast the receiver should answer a delivery, ms (default 2000; `client.receiver-fast`). */
  readonly answerWithinMs?: number;
  /**
   * How long the checks wait for the client's reads after a delivery, or its retry after a 429's delay, ms (default
   * 5000): a suite makes it short to settle sooner.
   */
  readonly readWithinMs?: number;
}

/** How `assertPassed` judges the report. */
export interface AssertPassedOptions {
  /** Also throw on a MUST check the client's traffic did not exercise (a certificate: every MUST check ran and passed). */
  readonly certify?: boolean;
  /** Also throw on a SHOULD check that failed. */
  readonly strict?: boolean;
  /** Longest to wait for the pending observations first, ms (default 30 s). */
  readonly timeoutMs?: number;
}

/** Client checks running on a test tenant: the client under test runs, then the test reads or asserts the verdict. */
export interface ClientChecks {
  readonly profile: 'observe' | 'certify';
  readonly seed: number;
  /** When they started (ISO 8601). */
  readonly startedAt: string;
  /**
   * Resolves with the report once nothing is pending (no delivery, injected 429 or window the checks still wait
   * for); rejects after `timeoutMs` (default 30 s) with what is still pending.
   */
  settled(options?: { readonly timeoutMs?: number }): Promise<ClientReport>;
  /** The report so far (outcomes of checks with pending observations may still change). */
  report(): Promise<ClientReport>;
  /**
   * Settles, then throws an Error listing the MUST checks that failed (with `certify` also those not exercised, with
   * `strict` also the SHOULD checks that failed); resolves with the report otherwise.
   */
  assertPassed(options?: AssertPassedOptions): Promise<ClientReport>;
  /** Ends the checks: the final report. */
  stop(): Promise<ClientReport>;
}

/** An integer option within the bounds the mock takes it in (mock/client-checks/run.ts). */
const bounded = (field: keyof typeof START_BOUNDS, unit = '') => {
  const { min, max } = START_BOUNDS[field];
  return Type.Integer({ minimum: min, maximum: max, ...expects(`an integer from ${min} to ${max}${unit}`) });
};

const PROFILES = ['observe', 'certify'] as const;
// On each member too: a string that is neither is reported by the member of its kind (check.ts).
const PROFILE_WORDS = "'observe' or 'certify'";

const ClientChecksOptionsSchema = Type.Partial(
  Type.Object(
    {
      profile: Type.Union(
        PROFILES.map((p) => Type.Literal(p, expects(PROFILE_WORDS))),
        expects(PROFILE_WORDS),
      ),
      seed: bounded('seed'),
      retryAfterSeconds: bounded('retryAfterSeconds', ' (s)'),
      answerWithinMs: bounded('answerWithinMs', ' (ms)'),
      readWithinMs: bounded('readWithinMs', ' (ms)'),
    },
    { additionalProperties: false },
  ),
);

const TimeoutSchema = Type.Partial(
  Type.Object(
    { timeoutMs: Type.Integer({ minimum: 0, maximum: 3_600_000, ...expects('an integer from 0 to 3600000 (ms)') }) },
    { additionalProperties: false },
  ),
);

const AssertSchema = Type.Partial(
  Type.Object(
    {
      certify: Type.Boolean(expects('true or false')),
      strict: Type.Boolean(expects('true or false')),
      timeoutMs: TimeoutSchema.properties.timeoutMs,
    },
    { additionalProperties: false },
  ),
);

/** Default bound of `settled` (inferred: the longest window, a read after a delivery, is 5 s; a suite waits longer). */
const SETTLE_TIMEOUT_MS = 30_000;
/**
 * How often `settled` judges the trace again (inferred: windows last a second or more, and each look judges the
 * whole bounded trace, CPU the client under test may share).
 */
const POLL_MS = 50;

/** A check as a failure message lists it: its level, id, title, and the first evidence or the skip's reason. */
function described(r: CheckResult, what: string): string[] {
  const lines = [`${what} ${r.level} ${r.id}: ${r.title}`];
  if (r.outcome === 'skip') lines.push(`  ${r.reason ?? ''}`);
  for (const e of r.evidence.slice(0, 2)) lines.push(...evidenceLines(e).map((l) => `  ${l}`));
  if (r.failureCount > 2) lines.push(`  (${r.failureCount} failures; see the report)`);
  return lines;
}

/** The error of a report that does not pass, or null: the checks it fails on, each with its evidence. */
function assertionError(report: ClientReport, options: AssertPassedOptions): Error | null {
  const failed = report.checks.filter((r) => r.level === 'MUST' && (r.outcome === 'fail' || r.outcome === 'error'));
  const skipped = options.certify ? report.checks.filter((r) => r.level === 'MUST' && r.outcome === 'skip') : [];
  const should = options.strict
    ? report.checks.filter((r) => r.level === 'SHOULD' && (r.outcome === 'fail' || r.outcome === 'error'))
    : [];
  if (failed.length + skipped.length + should.length === 0) return null;
  const counts = [
    ...(failed.length ? [`${failed.length} MUST check(s) failed`] : []),
    ...(skipped.length ? [`${skipped.length} MUST check(s) not exercised`] : []),
    ...(should.length ? [`${should.length} SHOULD check(s) failed`] : []),
  ];
  const lines = [
    `client checks (profile ${report.profile}, seed ${report.seed}): ${counts.join(', ')}`,
    ...failed.flatMap((r) => described(r, 'FAIL')),
    ...skipped.flatMap((r) => described(r, 'NOT EXERCISED')),
    ...should.flatMap((r) => described(r, 'FAIL')),
  ];
  return new Error(lines.join('\n'));
}

/** What the handle needs of its mock. */
interface ClientChecksDeps {
  readonly control: TenantControl;
  /** Throws when the mock is closed. */
  readonly assertOpen: (what: string) => void;
}

/** `t.clientChecks`: starts client checks of the tenant through the mock's control API, without HTTP. */
export function clientChecksOf({ control, assertOpen }: ClientChecksDeps): {
  start(options?: ClientChecksOptions): Promise<ClientChecks>;
} {
  return {
    start: async (options) => {
      assertOpen('clientChecks.start');
      const checked = checkObject(ClientChecksOptionsSchema, options, { where: 'clientChecks.start', noun: 'option' });
      const started = await control.clientChecks.start(checked as ClientChecksOptions);
      const { startedAt } = started;
      /** The report of these checks; throws when they ended or were started again. */
      const current = async (what: string): Promise<ClientReport> => {
        assertOpen(`clientChecks.${what}`);
        const report = (await control.clientChecks.report('json')) as ClientReport | null;
        if (report === null)
          throw new Error(`clientChecks.${what}: the client checks ended (stopped, or the tenant was reset)`);
        // A start of the same seed and profile in the same millisecond is not told apart (inferred: a test that starts
        // again means the new checks, and its old handle would read them).
        if (report.date !== startedAt || report.seed !== started.seed || report.profile !== started.profile)
          throw new Error(`clientChecks.${what}: the client checks were started again (at ${report.date})`);
        return report;
      };
      const settled = async (what: string, timeoutMs = SETTLE_TIMEOUT_MS): Promise<ClientReport> => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const report = await current(what);
          if (report.pending.length === 0) return report;
          if (Date.now() >= deadline) {
            const items = report.pending.map((p) => `  ${p.what}${p.until ? ` (until ${p.until})` : ''}`);
            throw new Error(
              `clientChecks.${what}: still ${report.pending.length} observation(s) pending after ${timeoutMs} ms:\n${items.join('\n')}`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(0, deadline - Date.now()))));
        }
      };
      return {
        profile: started.profile,
        seed: started.seed,
        startedAt,
        settled: async (opts) => {
          const { timeoutMs } = checkObject(TimeoutSchema, opts, { where: 'cc.settled', noun: 'option' });
          return settled('settled', timeoutMs as number | undefined);
        },
        report: () => current('report'),
        assertPassed: async (opts) => {
          const given = checkObject(AssertSchema, opts, { where: 'cc.assertPassed', noun: 'option' });
          const report = await settled('assertPassed', given.timeoutMs as number | undefined);
          const error = assertionError(report, given as AssertPassedOptions);
          if (error) throw error;
          return report;
        },
        stop: async () => {
          await current('stop');
          const report = (await control.clientChecks.stop()) as ClientReport | null;
          if (report === null) throw new Error('clientChecks.stop: the client checks ended already');
          return report;
        },
      };
    },
  };
}
