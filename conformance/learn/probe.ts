import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import type { Exchange, RequestSpec } from '../wire/client.js';
import { CheckContext, type CheckDef, type RunContext } from '../context.js';
import { identity, listSpec, pageOf, readList, type ListData, type ListParams } from '../helpers.js';
import { listProfile, type ListProfile } from '../observe/list-profile.js';
import type { Observations } from './observations.js';

/** What one probe works with: the run (client, credentials, options), a view for the observers, and the record. */
export interface ProbeContext {
  run: RunContext;
  seen: Observations;
  /** The view the shared observers take (`observe/list-profile.ts`, `readList`), under the name `learn`. */
  check: CheckContext;
  /** Sends a request under the name `learn` (every answer of the run is scanned at the end, observations.ts). */
  send(spec: RequestSpec): Promise<Exchange>;
}

/**
 * A probe: the decision points it settles and what it needs (`read`: nothing but credentials; `write`: it changes
 * data, `--allow-writes`; `webhooks`: a receiver, `--webhooks`; `rate-limit`: it bursts past the limit,
 * `--rate-limit-probe`).
 */
export interface Probe {
  name: string;
  kind: 'read' | 'write' | 'webhooks' | 'rate-limit';
  /** Points it can observe (reported as not observed when it does not run). */
  points: () => string[];
  run(p: ProbeContext): Promise<void>;
}

/** The view of the run the shared observers take (they read and memoise through a check). */
const LEARN_CHECK: CheckDef = {
  id: 'learn',
  title: 'opsapi learn',
  family: 'lists',
  clause: '',
  level: 'SHOULD',
  run: async () => undefined,
};

export function learnView(run: RunContext): CheckContext {
  return new CheckContext(run, LEARN_CHECK);
}

/** Lists addressed without path values. */
export function plainLists(): OperationDef[] {
  return OPERATIONS.filter((op) => op.list && op.pathParams.length === 0);
}

/** The lists the contract filters and sorts (where the list rules are decided). */
export function filteredLists(): OperationDef[] {
  return plainLists().filter((op) => op.list?.filterAndSort);
}

export function list(p: ProbeContext, op: OperationDef, params: ListParams, path = op.path): Promise<Exchange> {
  return p.send(listSpec(op, path, params));
}

/** Identities of a page in order. */
export const ids = (ex: Exchange): string[] => (pageOf(ex)?.results ?? []).map(identity);

/** A list read whole (memoised), with what the target filters and sorts it by; a reason when it cannot be. */
export async function profiled(
  p: ProbeContext,
  op: OperationDef,
): Promise<{ data: ListData; profile: ListProfile } | string> {
  const data = await readList(p.check, op);
  if (typeof data === 'string') return data;
  if (data.form !== 'envelope') return `${op.operationId} answers a bare array: it takes no list parameters`;
  return { data, profile: await listProfile(p.check, data) };
}

/** The case of the letters of a text swapped. */
export const swapCase = (s: string): string =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');

/** A value that stands in a filter as it is: letters, digits and `_.-` (no operator, bracket or space). */
export const plainValue = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_.-]{1,100}$/.test(v);
