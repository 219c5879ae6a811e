import { decisionPoint, type DecisionKind, type DecisionValues, type Decisions } from '../../spec/decisions/index.js';

/** Whether two values of a decision point are the same (a retry delay's header name ignoring case). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  const x = a as DecisionValues['retry-delay'];
  const y = b as DecisionValues['retry-delay'];
  return x.header.toLowerCase() === y.header.toLowerCase() && x.unit === y.unit;
}

/**
 * The observed values of one kind of decision point that differ from the contract's inferred ones, by the point's
 * subject (an error code or an operationId) or, for a point without one, by its id. A value equal to the inferred
 * one is the mock's own behaviour already: nothing to adopt, so nothing is decorated for it.
 */
export function adoptedOf<K extends DecisionKind>(decisions: Decisions, kind: K): Map<string, DecisionValues[K]> {
  const out = new Map<string, DecisionValues[K]>();
  for (const [id, observed] of decisions) {
    const point = decisionPoint(id);
    if (point?.kind !== kind || same(observed, point.inferred)) continue;
    out.set(point.subject ?? id, observed as DecisionValues[K]);
  }
  return out;
}
