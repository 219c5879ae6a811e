import { decisionPoints, type DecisionKind, type DecisionValues, type Decisions } from '../../spec/decisions/index.js';

/**
 * The observed values of one kind of decision point that differ from the contract's inferred ones, by the point's
 * subject (an error code or an operationId) or, for a point without one, by its id. A value equal to the inferred
 * one (as the point compares them: a header name without case, say) is the mock's own behaviour already: nothing to
 * adopt, so nothing is decorated for it.
 */
export function adoptedOf<K extends DecisionKind>(decisions: Decisions, kind: K): Map<string, DecisionValues[K]> {
  const out = new Map<string, DecisionValues[K]>();
  for (const [id, observed] of decisions) {
    const point = decisionPoints().get(id);
    if (point?.kind !== kind || point.same(point.inferred, observed)) continue;
    out.set(point.subject ?? id, observed as DecisionValues[K]);
  }
  return out;
}

/** The one value of a point without subject that differs from the inferred one, or undefined. */
export function adoptedRule<K extends DecisionKind>(decisions: Decisions, kind: K): DecisionValues[K] | undefined {
  return adoptedOf(decisions, kind).get(kind);
}
