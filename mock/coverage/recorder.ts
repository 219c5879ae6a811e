import type { Coverage } from './schema.js';
import { summarize } from './report.js';
import { CONTRACT_UNIVERSE } from './universe.js';

/**
 * What one tenant's traffic exercised: a count per operation and per declared status/code pair. Bounded by the
 * contract, not by the traffic: two arrays the size of the universe, whatever the number of requests (inferred: a
 * long-running shared mock must not grow, docs/DESIGN.md, "Tenants and stores"). Answers the contract does not declare (a `Prefer`
 * the mock refuses, an unknown code) count as a call of the operation and as no pair.
 */
export class CoverageRecorder {
  private readonly universe = CONTRACT_UNIVERSE;
  private readonly calls = new Float64Array(this.universe.operations.length);
  private readonly hits = new Float64Array(this.universe.pairs.length);

  /** One answer of an operation: its HTTP status and its problem code (undefined: none). */
  record(operationId: string, status: number, code: string | undefined): void {
    const op = this.universe.operationAt(operationId);
    if (op === undefined) return;
    this.calls[op] = (this.calls[op] ?? 0) + 1;
    const pair = this.universe.pairAt(operationId, status, code ?? null);
    if (pair !== undefined) this.hits[pair] = (this.hits[pair] ?? 0) + 1;
  }

  /** The counts as `GET /__mock/coverage` answers them (a copy). */
  report(): Coverage {
    const operations = this.universe.operations.map((op, i) => ({ ...op, called: this.calls[i] ?? 0 }));
    const pairs = this.universe.pairs.map((pair, i) => ({ ...pair, hit: this.hits[i] ?? 0 }));
    return { operations, pairs, summary: summarize(operations, pairs) };
  }
}
