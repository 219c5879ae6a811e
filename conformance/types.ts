/**
 * Types of the conformance runner: checks, their outcomes, the evidence they keep, and the report.
 */

/** MUST: documented behaviour of the reference. SHOULD: behaviour the contract infers (or the reference never states). */
export type Level = 'MUST' | 'SHOULD';

/** What a check can need beyond a base URL and a token. */
export type Precondition = 'token' | 'writes' | 'webhooks' | 'limitedToken' | 'rateLimitProbe' | 'otherTenant';

/** The check families (one file each under `conformance/checks/`); also the conformance classes of the report. */
export type Family =
  | 'auth'
  | 'permissions'
  | 'errors'
  | 'lists'
  | 'filters'
  | 'catalog'
  | 'writes'
  | 'webhooks'
  | 'rate-limit'
  | 'isolation'
  | 'schema';

/** Titles of the families, in report order. */
export const FAMILIES: ReadonlyArray<{ id: Family; title: string }> = [
  { id: 'auth', title: 'Authentication' },
  { id: 'permissions', title: 'Permissions' },
  { id: 'errors', title: 'Problem bodies' },
  { id: 'lists', title: 'Lists: paging and sorting' },
  { id: 'filters', title: 'Lists: the filter language' },
  { id: 'catalog', title: 'Error catalog' },
  { id: 'writes', title: 'Writes' },
  { id: 'webhooks', title: 'Webhooks' },
  { id: 'rate-limit', title: 'Rate limits' },
  { id: 'isolation', title: 'Tenant isolation' },
  { id: 'schema', title: 'Responses against the contract' },
];

/**
 * When a check runs. `state`: checks that change the target (writes, webhooks), first, so later reads see their data;
 * `main`: reads; `alone`: the rate-limit probe, by itself and last among the checks that send traffic; `aggregate`:
 * checks that judge every exchange the run recorded (problem bodies, schema).
 */
export type Phase = 'state' | 'main' | 'alone' | 'aggregate';

export type Outcome = 'pass' | 'fail' | 'skip' | 'error';

/** A request as recorded (credentials redacted). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as recorded (body text truncated for the report). */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

/** One piece of evidence of a failure: what was asked, what came back, and what was expected. */
export interface Evidence {
  message: string;
  expected?: string;
  actual?: string;
  request?: RecordedRequest;
  response?: RecordedResponse;
}

/** The result of one check. */
export interface CheckResult {
  id: string;
  title: string;
  family: Family;
  clause: string;
  level: Level;
  outcome: Outcome;
  /** Why a check was skipped, or what made it error; for a pass, what it covered. */
  reason?: string;
  /** Failures, at most a few per check (the count of all failures is in `failureCount`). */
  evidence: Evidence[];
  failureCount: number;
  durationMs: number;
  /** A failure accepted by `--baseline`. */
  baselined?: boolean;
  /**
   * Information the check gathered that is neither a pass nor a failure, e.g. response fields the contract does not
   * name ("Other SKU fields: not shown"). Bounded like evidence; `infoCount` counts all of it.
   */
  info?: string[];
  infoCount?: number;
}

/** Counts of outcomes per level. */
export type Counts = Record<Outcome, { MUST: number; SHOULD: number; total: number }>;

/** Verdict of one conformance class (family), under `--certify` semantics. */
export interface FamilyVerdict {
  family: Family;
  title: string;
  certified: boolean;
  counts: Counts;
}

/** Which checks of the registry a run selected (`--only`/`--skip`): what it did not check is said, never implied. */
export interface Selection {
  /** `--only` and `--skip` as given (empty when not given). */
  only: string[];
  skip: string[];
  /** The checks of the registry, by level. */
  registry: { MUST: number; SHOULD: number };
  /** The checks of the registry the selection left out, by level. */
  notSelected: { MUST: number; SHOULD: number };
  /** The MUST checks the selection left out. */
  mustNotSelected: string[];
}

/**
 * The verdict every format shows. With `--certify`: CERTIFIED or NOT CERTIFIED (every MUST check of the registry ran
 * and passed, or why not); without it, as the exit code reads: PASSED (exit 0) or FAILED (exit 1).
 */
export interface Verdict {
  label: 'CERTIFIED' | 'NOT CERTIFIED' | 'PASSED' | 'FAILED';
  /** "PASSED: no MUST check failed or errored; 41 of 66 MUST checks ran": the label and its causes. */
  text: string;
  /** The causes, each a sentence. */
  because: string[];
}

/** The machine-readable report (`--report x.json`). */
export interface Report {
  tool: { name: string; version: string };
  contractVersion: string;
  target: string;
  date: string;
  durationMs: number;
  /** The options of the run, credentials redacted. */
  options: Record<string, unknown>;
  /** Whether the target exposes the mock's admin API (`/__mock/*`). */
  mockAdmin: boolean;
  counts: Counts;
  families: FamilyVerdict[];
  checks: CheckResult[];
  /** Baselined checks that now pass (stale entries). */
  staleBaseline: string[];
  /**
   * CERTIFIED under `--certify` semantics: every check of the registry was selected, and no MUST check failed,
   * errored or was skipped (and no stale baseline entry).
   */
  certified: boolean;
  /** The verdict as every format shows it (absent from reports of older versions: `verdictOf` works it out). */
  verdict?: Verdict;
  /** The checks `--only`/`--skip` selected (`opsapi conform`; absent for `opsapi proxy`, whose rules are not selected). */
  selection?: Selection;
  /** MUST checks that ran (passed, failed or errored) of the MUST checks selected (`--only`/`--skip` leave some out). */
  mustRan: number;
  mustTotal: number;
  /**
   * 0: no MUST check failed or errored; 1 otherwise (or SHOULD under --strict, skipped or unselected checks under
   * --certify, more than half of the MUST checks skipped without --allow-skips, stale baseline).
   */
  exitCode: 0 | 1;
  /** Why the exit code is 1. */
  exitReasons: string[];
  /** What the run created and could not remove, and similar remarks. */
  notes: string[];
  /** `opsapi proxy` only: what the traffic it forwarded covered of the contract. */
  traffic?: TrafficReport;
}

/** What the traffic through `opsapi proxy` covered of the contract, and its counters. */
export interface TrafficReport {
  exchanges: number;
  /** Exchanges that found a MUST or SHOULD violation. */
  withViolations: number;
  transportErrors: number;
  /** Exchanges identical to one judged before, whose judgment was reused (the rules are pure). */
  judgedAgain: number;
  operations: { total: number; called: number; calls: Record<string, number> };
  pairs: { total: number; met: number; missing: { operationId: string; status: number; code: string | null }[] };
  undeclared: { operationId: string; status: number; code: string | null; count: number }[];
  notInContract: { count: number; first: string[] };
  /** The last exchanges, newest last (a ring: older ones are only counted). */
  recent: { seq: number; method: string; target: string; status: number; operationId?: string; violations: string[] }[];
}
