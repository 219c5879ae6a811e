/**
 * The report every certification of the kit writes: `opsapi conform` (a server), `opsapi proxy` (the traffic it
 * forwarded) and the mock's client checks (a client and its webhook receiver). Checks, their outcomes, the evidence
 * they keep, the counts, the verdict. A report names its own classes of checks (`F`, the family of each check).
 */

/** MUST: documented behaviour of the reference. SHOULD: behaviour the contract infers (or the reference never states). */
export type Level = 'MUST' | 'SHOULD';

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
export interface CheckResult<F extends string = string> {
  id: string;
  title: string;
  family: F;
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

/** A class of checks as a report shows it: its id and title, in report order. */
export interface ReportFamily<F extends string = string> {
  id: F;
  title: string;
}

/** Verdict of one class of checks (family), under `--certify` semantics. */
export interface FamilyVerdict<F extends string = string> {
  family: F;
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

/** The fields every report has (`--report x.json`); a tool's report adds its own. */
export interface CheckReport<F extends string = string> {
  tool: { name: string; version: string };
  contractVersion: string;
  target: string;
  date: string;
  durationMs: number;
  /** The options of the run, credentials redacted. */
  options: Record<string, unknown>;
  counts: Counts;
  families: FamilyVerdict<F>[];
  checks: CheckResult<F>[];
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
}
