/**
 * Types of the conformance runner: checks, their outcomes, the evidence they keep, and the report.
 */

import type { CheckReport, CheckResult as SharedCheckResult } from '../common/report/types.js';

export type {
  Evidence,
  Level,
  Outcome,
  RecordedRequest,
  RecordedResponse,
  Selection,
  Verdict,
} from '../common/report/types.js';

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

/** The result of one check of the runner (a check of the registry, or a rule of the proxy). */
export type CheckResult = SharedCheckResult<Family>;

/** The machine-readable report (`--report x.json`). */
export interface Report extends CheckReport<Family> {
  /** Whether the target exposes the mock's admin API (`/__mock/*`). */
  mockAdmin: boolean;
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
