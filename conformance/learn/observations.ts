import { decisionPoint, type DecisionEvidence } from '../../spec/decisions/index.js';
import { recordedRequest, recordedResponse, type Exchange } from '../client.js';
import type { Redactor } from '../redact.js';

/** Evidence kept per decision (the first exchanges that showed it). */
const MAX_EVIDENCE = 2;

/** One observation of a decision point: the value seen and the exchange that showed it. */
interface Seen {
  observed: unknown;
  evidence: DecisionEvidence[];
  /** Values that disagreed with the first one (a deployment that is not consistent). */
  conflicts: unknown[];
}

/** The evidence of an exchange, credentials redacted, bodies clipped. */
export function evidence(ex: Exchange, redactor: Redactor): DecisionEvidence {
  const request = recordedRequest(ex);
  const response = recordedResponse(ex, redactor);
  return {
    request: {
      method: request.method,
      url: redactor.text(request.url),
      headers: request.headers,
      ...(request.body ? { body: redactor.text(request.body) } : {}),
    },
    response: { status: response.status, headers: response.headers, ...(response.body ? { body: response.body } : {}) },
  };
}

/** What `opsapi learn` saw, per decision point, and the points it could not provoke with the reason. */
export class Observations {
  private readonly seen = new Map<string, Seen>();
  private readonly missing = new Map<string, string>();

  constructor(private readonly redactor: Redactor) {}

  /** Records a value of a point (known points only) shown by an exchange. */
  record(id: string, observed: unknown, ex?: Exchange): void {
    if (!decisionPoint(id)) return;
    const known = this.seen.get(id);
    const proof = ex ? [evidence(ex, this.redactor)] : [];
    if (!known) {
      this.seen.set(id, { observed, evidence: proof, conflicts: [] });
      this.missing.delete(id);
      return;
    }
    if (JSON.stringify(known.observed) !== JSON.stringify(observed)) {
      if (known.conflicts.length < 4) known.conflicts.push(observed);
    } else if (known.evidence.length < MAX_EVIDENCE) known.evidence.push(...proof);
  }

  /** Notes why a point was not observed (kept unless it is observed later). */
  cannot(id: string, reason: string): void {
    if (!this.seen.has(id) && !this.missing.has(id)) this.missing.set(id, reason);
  }

  /**
   * Scans an exchange for what every answer shows: the status of a catalog code whose status the contract infers,
   * and the success status of an operation whose success status it infers.
   */
  scan(ex: Exchange): void {
    if (ex.status >= 400) {
      const code = (ex.json as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string') this.record(`code-status:${code}`, ex.status, ex);
    } else if (ex.status >= 200 && ex.status < 300 && ex.operationId)
      this.record(`success-status:${ex.operationId}`, ex.status, ex);
  }

  entries(): [string, Seen][] {
    return [...this.seen];
  }

  notObserved(): { id: string; reason: string }[] {
    return [...this.missing].map(([id, reason]) => ({ id, reason }));
  }
}
