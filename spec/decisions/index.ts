/** Decisions a real deployment settles where the reference leaves a gap (see points.ts). */
export {
  decisionPoints,
  INFERRED_DEFAULT_ORDER,
  PROBLEM_MEDIA_TYPES,
  codeStatusId,
  type DecisionKind,
  type DecisionValues,
  type KeyRule,
  type RetryDelay,
  type RetryDelayUnit,
} from './points.js';
export {
  ShapeOf,
  type AttemptRecord,
  type EventIdCarrier,
  type LearnedListField,
  type RecordShape,
} from './shapes.js';
export {
  DECISION_FORMAT,
  decided,
  decisionsOf,
  parseDecisionFile,
  type DecisionEvidence,
  type DecisionFile,
  type Decisions,
  type RecordedDecision,
} from './file.js';
