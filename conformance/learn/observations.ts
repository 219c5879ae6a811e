import { decisionPoints, PROBLEM_MEDIA_TYPES, type DecisionEvidence } from '../../spec/decisions/index.js';
import { isRfc9110Section401Address } from '../../spec/schemas/problem.js';
import { mediaTypeOf, problemOf } from '../contract/bodies.js';
import { recordedRequest, recordedResponse, type Exchange } from '../wire/client.js';
import type { Redactor } from '../wire/redact.js';
import { RecordShapes } from './records.js';

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
function evidence(ex: Exchange, redactor: Redactor): DecisionEvidence {
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
  private readonly records = new RecordShapes();

  constructor(private readonly redactor: Redactor) {}

  /**
   * Records a value of a point (known points only) shown by an exchange. A value seen before keeps its place; another
   * value is a conflict, unless `replace`: a better observation (a real burst over a forced 429) takes the place.
   */
  record(id: string, observed: unknown, ex?: Exchange, replace = false): void {
    if (!decisionPoints().has(id)) return;
    const known = this.seen.get(id);
    const proof = ex ? [evidence(ex, this.redactor)] : [];
    if (!known || (replace && JSON.stringify(known.observed) !== JSON.stringify(observed))) {
      const conflicts = known ? [known.observed, ...known.conflicts].slice(0, 4) : [];
      this.seen.set(id, { observed, evidence: proof, conflicts: replace ? [] : conflicts });
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

  /** Whether a point has a value. */
  has(id: string): boolean {
    return this.seen.has(id);
  }

  /**
   * Scans an exchange for what every answer shows: the status of a catalog code whose status the contract infers,
   * the success status of an operation, how problems are sent (media type, the plain 401's address), and the records
   * and collection form of success answers.
   */
  scan(ex: Exchange): void {
    this.records.scan(ex);
    if (ex.status >= 400) {
      const body = problemOf(ex);
      const code = body?.code;
      if (typeof code === 'string') this.record(`code-status:${code}`, ex.status, ex);
      // Errors / Problem body: the media type is not shown; a problem of a contract operation tells it.
      const media = mediaTypeOf(ex.headers['content-type']);
      if (ex.operationId && body && typeof body.title === 'string' && PROBLEM_MEDIA_TYPES.includes(media as never))
        this.record('problem-media-type', media, ex);
      if (ex.status === 401 && body && !('code' in body) && typeof body.type === 'string')
        if (isRfc9110Section401Address(body.type)) this.record('problem-401-type', body.type, ex);
    } else if (ex.status >= 200 && ex.status < 300 && ex.operationId)
      this.record(`success-status:${ex.operationId}`, ex.status, ex);
  }

  /** Records what the scans gathered over many answers (call once, after every exchange was scanned). */
  settle(): void {
    for (const [op, form, ex] of this.records.formsOf()) this.record(`list-form:${op}`, form, ex);
    for (const [op, shape, ex] of this.records.shapesOf()) this.record(`record-fields:${op}`, shape, ex);
  }

  entries(): [string, Seen][] {
    return [...this.seen];
  }

  notObserved(): { id: string; reason: string }[] {
    return [...this.missing].map(([id, reason]) => ({ id, reason }));
  }
}
