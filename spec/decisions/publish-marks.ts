import type { OpenAPIObject } from 'openapi3-ts/oas31';

/** A JSON object of the document, as the publishing steps read and change it. */
export type Node = { [key: string]: unknown };

/** The mark of a node decisions changed. */
interface ObservedMark {
  target: string;
  date: string;
  /** The decision points that changed the node. */
  decisions: string[];
  /** The contract's value (for a response, the contract's status of each code that moved). */
  inferred: unknown;
  /** Why the contract inferred it. */
  rationale?: string;
}

/** Where and when the decisions of a file were observed. */
export interface Observation {
  target: string;
  date: string;
}

/** Which provenance keys a node uses for the fact a decision changes (the catalog keeps the status apart). */
interface ProvenanceKeys {
  provenance: string;
  rationale: string;
}

const NODE_KEYS: ProvenanceKeys = { provenance: 'x-provenance', rationale: 'x-rationale' };

/** The keys of a catalog entry's status (spec/build.ts: `x-status-provenance`, `x-status-rationale`). */
export const STATUS_KEYS: ProvenanceKeys = { provenance: 'x-status-provenance', rationale: 'x-status-rationale' };

/**
 * Marks a node a decision changed: `x-provenance: observed` and `x-observed: { target, date, decisions, inferred }`,
 * `inferred` being the contract's value. The rationale of the inference moves into `x-observed.rationale`: it explains
 * the contract's value, no longer the node's. A node the reference documents keeps `x-provenance: documented` (what
 * the reference states stays documented; a decision only changes an inferred detail inside it) and carries
 * `x-observed` alone for that detail. Marking a node twice adds the decision to the same mark.
 */
export function markObserved(
  node: Node,
  at: Observation,
  decision: string,
  inferred: unknown,
  keys: ProvenanceKeys = NODE_KEYS,
): void {
  const previous = node['x-observed'] as ObservedMark | undefined;
  if (previous) {
    if (!previous.decisions.includes(decision)) previous.decisions.push(decision);
    // Several decisions on one node (codes moved in and out of one response) each add their entry to `inferred`.
    previous.inferred =
      isPlainObject(previous.inferred) && isPlainObject(inferred) ? { ...previous.inferred, ...inferred } : inferred;
    return;
  }
  const rationale = node[keys.rationale];
  if (node[keys.provenance] !== 'documented') {
    node[keys.provenance] = 'observed';
    delete node[keys.rationale];
  }
  const mark: ObservedMark = {
    target: at.target,
    date: at.date,
    decisions: [decision],
    inferred,
    ...(typeof rationale === 'string' ? { rationale } : {}),
  };
  node['x-observed'] = mark;
}

/** Whether a value is a JSON object (not an array). */
export function isPlainObject(v: unknown): v is Node {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document's paths. */
export function operationsOf(doc: OpenAPIObject): Node[] {
  const found: Node[] = [];
  for (const item of Object.values(doc.paths ?? {}) as Node[])
    for (const method of METHODS) if (isPlainObject(item[method])) found.push(item[method]);
  return found;
}

/** The responses of an operation, by status. */
export function responsesOf(op: Node | undefined): Record<string, Node> {
  return (op?.responses ?? {}) as Record<string, Node>;
}

/** The operation of an operationId, or undefined. */
export function operationById(doc: OpenAPIObject, operationId: string): Node | undefined {
  return operationsOf(doc).find((op) => op.operationId === operationId);
}

/** "observed on <target>, <date>": how a description says where and when a value was observed. */
export function observedOn(at: Observation): string {
  return `observed on ${at.target || 'the target'}${at.date ? `, ${at.date}` : ''}`;
}
