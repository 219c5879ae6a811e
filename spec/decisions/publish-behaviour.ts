import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { DecisionKind } from './kinds.js';
import { type Node, type Observation, isPlainObject, markObserved } from './publish-marks.js';

/**
 * The contract states some behaviour in no schema, parameter or response but in the nodes of its top-level
 * `x-behaviour` (spec/behaviour-decisions.ts: how texts compare and sort, how a filter groups, how problems are
 * typed), which the runner names as the facts its SHOULD checks rest on. A decision observed at one of them gives the
 * node the observed value, marked observed, so the adapted contract says what the deployment does there too.
 */

/** The node of `x-behaviour` each kind settles, and its value as observed. */
const NODES: Partial<Record<DecisionKind, { node: string; value: (observed: string, current: string) => string }>> = {
  'problem-media-type': { node: 'problem-media-type', value: (v) => v },
  'text-case': {
    node: 'text-case',
    value: (v) => `Contains, StartsWith and EndsWith compare ${v === 'sensitive' ? 'with' : 'without'} regard to case`,
  },
  'filter-precedence': {
    node: 'filter-precedence',
    value: (v) => (v === 'and-first' ? '`&&` binds tighter than `||`' : '`&&` and `||` are read left to right'),
  },
  'field-name-case': {
    node: 'field-name-case',
    value: (v) => `field names in filterBy and sortBy match ${v === 'sensitive' ? 'with' : 'without'} regard to case`,
  },
  'date-only-equals': {
    node: 'date-only-day',
    value: (v) =>
      v === 'whole-day'
        ? 'a date-only value (`2025-03-01`) compares whole UTC days'
        : 'a date-only value (`2025-03-01`) is the instant of its midnight, UTC',
  },
  'null-order': {
    node: 'sort-collation',
    value: (v, current) =>
      current.replace(
        /nulls (first|last) ascending \((first|last) descending\)/,
        `nulls ${v} ascending (${v === 'first' ? 'last' : 'first'} descending)`,
      ),
  },
};

/** Whether a kind settles a node of the contract's `x-behaviour`. */
export function settlesBehaviour(kind: DecisionKind): boolean {
  return NODES[kind] !== undefined;
}

/** A decision at a node of `x-behaviour`: the observed value, the node marked observed with the contract's value. */
export function applyBehaviour(
  doc: OpenAPIObject,
  id: string,
  kind: DecisionKind,
  observed: unknown,
  at: Observation,
): void {
  const rule = NODES[kind];
  const decisions = doc['x-behaviour'] as Record<string, Node> | undefined;
  const node = rule && isPlainObject(decisions) ? decisions[rule.node] : undefined;
  if (!rule || !isPlainObject(node) || typeof node.value !== 'string') return;
  const value = rule.value(String(observed), node.value);
  if (value === node.value) return;
  const inferred = node.value;
  node.value = value;
  markObserved(node, at, id, inferred);
}
