import { OPERATIONS } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { problemOf } from '../contract/bodies.js';

/** One answer the contract declares for an operation: a status and, for coded errors, a code. */
interface DeclaredPair {
  operationId: string;
  status: number;
  code: string | null;
}

/** What the traffic covered of the contract: operations called, declared answers met, answers the contract lacks. */
interface TrafficCoverage {
  operations: { total: number; called: number; calls: Record<string, number> };
  pairs: { total: number; met: number; missing: DeclaredPair[] };
  /** Answers of contract operations the contract does not declare (status, or status and code). */
  undeclared: { operationId: string; status: number; code: string | null; count: number }[];
  /** Requests to paths no operation of the contract has, forwarded and counted ("not in the contract"). */
  notInContract: { count: number; first: string[] };
}

/** Distinct answers kept per kind: a long run keeps counters, never every request. */
const MAX_KEPT = 50;

function declaredPairs(): DeclaredPair[] {
  return OPERATIONS.flatMap((op): DeclaredPair[] => [
    { operationId: op.operationId, status: op.success.status, code: null },
    ...op.errors.flatMap((e): DeclaredPair[] =>
      e.codes.length
        ? e.codes.map((code) => ({ operationId: op.operationId, status: e.status, code }))
        : [{ operationId: op.operationId, status: e.status, code: null }],
    ),
  ]);
}

/** What the coverage counts of an exchange. */
export interface Answer {
  operationId: string | undefined;
  method: string;
  path: string;
  status: number;
  code: string | null;
}

export function answerOf(ex: Exchange, code: string | null): Answer {
  return { operationId: ex.operationId, method: ex.method, path: ex.path, status: ex.status, code };
}

const key = (operationId: string, status: number, code: string | null) => `${operationId} ${status} ${code ?? ''}`;

/** Counts what the traffic through the proxy covered of the contract, in bounded memory. */
export class CoverageTally {
  private readonly declared = declaredPairs();
  private readonly declaredKeys = new Set(this.declared.map((p) => key(p.operationId, p.status, p.code)));
  private readonly met = new Set<string>();
  private readonly calls = new Map<string, number>();
  private readonly undeclared = new Map<
    string,
    { operationId: string; status: number; code: string | null; count: number }
  >();
  private notInContract = 0;
  private readonly unknownPaths: string[] = [];

  add(ex: Exchange): void {
    const rawCode = ex.status >= 400 ? problemOf(ex)?.code : undefined;
    this.addAnswer(answerOf(ex, typeof rawCode === 'string' ? rawCode : null));
  }

  /** Counts one answer (what `add` keeps of an exchange). */
  addAnswer({ operationId, method, path, status, code }: Answer): void {
    if (!operationId) {
      this.notInContract++;
      const line = `${method} ${path}`;
      if (this.unknownPaths.length < MAX_KEPT && !this.unknownPaths.includes(line)) this.unknownPaths.push(line);
      return;
    }
    if (status === 0) return;
    this.calls.set(operationId, (this.calls.get(operationId) ?? 0) + 1);
    const ex = { operationId, status };
    const exact = key(ex.operationId, ex.status, code);
    const uncoded = key(ex.operationId, ex.status, null);
    if (this.declaredKeys.has(exact)) this.met.add(exact);
    else if (code === null && this.declaredKeys.has(uncoded)) this.met.add(uncoded);
    else {
      const known = this.undeclared.get(exact);
      if (known) known.count++;
      else if (this.undeclared.size < MAX_KEPT)
        this.undeclared.set(exact, { operationId: ex.operationId, status: ex.status, code, count: 1 });
    }
  }

  summary(): TrafficCoverage {
    return {
      operations: { total: OPERATIONS.length, called: this.calls.size, calls: Object.fromEntries(this.calls) },
      pairs: {
        total: this.declared.length,
        met: this.met.size,
        missing: this.declared.filter((p) => !this.met.has(key(p.operationId, p.status, p.code))),
      },
      undeclared: [...this.undeclared.values()],
      notInContract: { count: this.notInContract, first: [...this.unknownPaths] },
    };
  }
}
