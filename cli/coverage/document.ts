import type { Coverage } from '../../mock/coverage/schema.js';
import type { GateResult, Minimums } from './gate.js';

/** What a coverage report file holds: the coverage and how it was taken and judged (never a credential). */
export interface CoverageReport {
  /** The base URL the coverage was read from. */
  readonly target: string;
  readonly generatedAt: string;
  /** The operations the totals are restricted to (`--operations`), or null for the whole contract. */
  readonly restrictedTo: readonly string[] | null;
  readonly minimums: Minimums;
  readonly gate: GateResult;
  readonly coverage: Coverage;
}
