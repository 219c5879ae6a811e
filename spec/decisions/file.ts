import { CONTRACT_VERSION } from '../build.js';
import { decisionPoints, type DecisionKind, type DecisionValues } from './points.js';

/** The format name of a decision file; a file of another format is refused. */
export const DECISION_FORMAT = 'opsapi-decisions/1';

/** A request or response as evidence (credentials redacted). */
export interface DecisionEvidence {
  request: { method: string; url: string; headers?: Record<string, string>; body?: string };
  response?: { status: number; headers?: Record<string, string>; body?: string };
}

/** One recorded decision: the contract's inferred value, what the target did, and how we know. */
export interface RecordedDecision<K extends DecisionKind = DecisionKind> {
  id: string;
  title: string;
  inferred: DecisionValues[K];
  observed: DecisionValues[K];
  differs: boolean;
  evidence: DecisionEvidence[];
  /** Other values the target showed at the same point (a deployment that is not consistent); the first one counts. */
  conflicts?: unknown[];
}

/** A decision file (`opsapi learn --out`). */
export interface DecisionFile {
  format: typeof DECISION_FORMAT;
  contractVersion: string;
  /** Where the decisions were observed (credentials removed) and when. */
  target: string;
  date: string;
  tool: string;
  decisions: RecordedDecision[];
  /** Points that could not be provoked, with the reason. */
  notObserved: { id: string; reason: string }[];
  /** What the learning run left behind at the target (an API key it created), for whoever reads the file. */
  notes?: string[];
}

/** The observed values of a decision file, by point id: what a mock adopts and a run expects. */
export type Decisions = ReadonlyMap<string, unknown>;

/** Reads a decision file: the decisions, or a clear message of why the file is refused. */
export function parseDecisionFile(value: unknown): { ok: true; file: DecisionFile } | { ok: false; error: string } {
  const f = value as Partial<DecisionFile> | null;
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return { ok: false, error: 'not a JSON object' };
  if (f.format !== DECISION_FORMAT)
    return { ok: false, error: `format is ${JSON.stringify(f.format)}, expected "${DECISION_FORMAT}"` };
  if (f.contractVersion !== CONTRACT_VERSION)
    return {
      ok: false,
      error: `it was learned for contract version ${JSON.stringify(f.contractVersion)}; this kit's contract is ${CONTRACT_VERSION} (learn again)`,
    };
  if (!Array.isArray(f.decisions)) return { ok: false, error: '"decisions" is not an array' };
  const seen = new Set<string>();
  for (const [i, d] of f.decisions.entries()) {
    const id = (d as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return { ok: false, error: `decisions[${i}] has no id` };
    const point = decisionPoints().get(id);
    if (!point) return { ok: false, error: `decisions[${i}]: unknown decision "${id.slice(0, 120)}"` };
    if (seen.has(id)) return { ok: false, error: `decisions[${i}]: "${id}" is recorded twice` };
    seen.add(id);
    const why = point.invalid((d as { observed?: unknown }).observed);
    if (why) return { ok: false, error: `decisions[${i}] "${id}": observed must be ${why}` };
  }
  return {
    ok: true,
    file: {
      ...(f as DecisionFile),
      notObserved: Array.isArray(f.notObserved) ? f.notObserved : [],
      target: String(f.target ?? ''),
      date: String(f.date ?? ''),
      tool: String(f.tool ?? ''),
    },
  };
}

/** The observed values of a file, by point id. */
export function decisionsOf(file: DecisionFile): Decisions {
  return new Map(file.decisions.map((d) => [d.id, d.observed]));
}

/** The value a point has under `decisions`: the observed one when recorded, else the inferred one. */
export function decided<K extends DecisionKind>(
  decisions: Decisions | undefined,
  id: string,
  inferred: DecisionValues[K],
): DecisionValues[K] {
  const v = decisions?.get(id);
  return v === undefined ? inferred : (v as DecisionValues[K]);
}
