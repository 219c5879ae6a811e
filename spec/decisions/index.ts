/** Decisions a real deployment settles where the reference leaves a gap (see points.ts). */
export {
  DECISION_POINTS,
  INFERRED_DEFAULT_ORDER,
  OTHER_KEY_RULES,
  RETRY_DELAY_UNITS,
  TEXT_CASES,
  codeStatusId,
  decisionPoint,
  type DecisionKind,
  type DecisionPoint,
  type DecisionValues,
  type OtherKeyRule,
  type RetryDelay,
  type RetryDelayUnit,
  type TextCase,
} from './points.js';
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
