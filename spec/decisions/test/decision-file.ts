import { CONTRACT_VERSION } from '../../build.js';
import { DECISION_FORMAT, decisionPoints, type DecisionFile } from '../index.js';

/**
 * A decision file as `opsapi learn` writes it, recording `observed` (values by point id) as observed at a made-up
 * deployment, without evidence. An id that is no decision point is recorded as given (for refusal tests).
 */
export function decisionFile(observed: Record<string, unknown>): DecisionFile {
  return {
    format: DECISION_FORMAT,
    contractVersion: CONTRACT_VERSION,
    target: 'https://api.example.test',
    date: '2025-06-01T10:00:00.000Z',
    tool: 'opsapi learn (test)',
    decisions: Object.entries(observed).map(([id, value]) => {
      const point = decisionPoints().get(id);
      return {
        id,
        title: point?.title ?? id,
        inferred: point?.inferred as never,
        observed: value as never,
        differs: JSON.stringify(value) !== JSON.stringify(point?.inferred),
        evidence: [],
      };
    }),
    notObserved: [],
  };
}
