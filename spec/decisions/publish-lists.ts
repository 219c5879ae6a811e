import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { DateOnlyRule, NullOrder, Precedence, TextCase, UnknownSortRule } from './kinds.js';
import {
  type Node,
  type Observation,
  isPlainObject,
  markObserved,
  observedOn,
  operationById,
  operationsOf,
} from './publish-marks.js';
import type { LearnedListField } from './shapes.js';

/**
 * Published decisions of the list rules (Endpoints / List and search endpoints): which fields each list filters and
 * sorts by, and how `sortBy` and `filterBy` behave where the reference does not say (unknown sort fields, nulls,
 * the case of field names, `&&` against `||`, date-only values). The parameters that describe the rules say what
 * was observed, and the nodes changed are marked.
 */

/** The list rule decisions that are one sentence on a list parameter. */
type ListRuleKind = 'unknown-sort-field' | 'null-order' | 'field-name-case' | 'filter-precedence' | 'date-only-equals';

/** What each rule says once observed, and which parameter states it. */
const RULES: {
  [K in ListRuleKind]: { parameter: 'sortBy' | 'filterBy'; says: (value: never) => string };
} = {
  'unknown-sort-field': {
    parameter: 'sortBy',
    says: (v: UnknownSortRule) =>
      v === 'ignored'
        ? 'A field the list does not have is ignored: the answer is in the order without it.'
        : 'A field the list does not have is refused with COMMON.QUERY.SORTING_PARSING_FAILED.',
  },
  'null-order': {
    parameter: 'sortBy',
    says: (v: NullOrder) =>
      `Null values come ${v} in an ascending sort (${v === 'first' ? 'last' : 'first'} descending).`,
  },
  'field-name-case': {
    parameter: 'filterBy',
    says: (v: TextCase) => `Field names are matched ${v === 'sensitive' ? 'with' : 'regardless of'} case.`,
  },
  'filter-precedence': {
    parameter: 'filterBy',
    says: (v: Precedence) =>
      v === 'and-first' ? '`&&` binds tighter than `||`.' : '`&&` and `||` are read left to right, with no precedence.',
  },
  'date-only-equals': {
    parameter: 'filterBy',
    says: (v: DateOnlyRule) =>
      v === 'whole-day'
        ? '`Equals` with a date-only value matches the whole UTC day.'
        : '`Equals` with a date-only value matches the instant of its midnight (UTC) only.',
  },
};

/** The nodes that describe a list parameter: the query parameters of that name and the search body's property. */
function parameterNodes(doc: OpenAPIObject, name: string): Node[] {
  const nodes: Node[] = [];
  const components = doc.components?.parameters as Record<string, Node> | undefined;
  for (const p of Object.values(components ?? {})) if (p.name === name && p.in === 'query') nodes.push(p);
  for (const op of operationsOf(doc))
    for (const p of (op.parameters ?? []) as Node[]) if (p.name === name && p.in === 'query') nodes.push(p);
  const body = (doc.components?.schemas as Record<string, Node> | undefined)?.ListBody;
  const property = (body?.properties as Record<string, Node> | undefined)?.[name];
  if (isPlainObject(property)) nodes.push(property);
  return nodes;
}

/** A list rule decision: the sentence on every node describing its parameter, the node marked observed. */
export function applyListRule(
  doc: OpenAPIObject,
  id: string,
  kind: ListRuleKind,
  inferred: string,
  observed: string,
  at: Observation,
): void {
  if (inferred === observed) return;
  const rule = RULES[kind];
  const sentence = `${rule.says(observed as never)} (${observedOn(at)}; the contract inferred: ${rule.says(inferred as never)})`;
  for (const node of parameterNodes(doc, rule.parameter)) {
    node.description = typeof node.description === 'string' ? `${node.description}\n${sentence}` : sentence;
    markObserved(node, at, id, inferred);
  }
}

/**
 * `list-fields:<op>`: the operation's `x-filterable` and `x-sortable` become the observed table, under the names
 * `filterBy` and `sortBy` take; its `x-list` node is marked observed.
 */
export function applyListFields(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: readonly LearnedListField[],
  observed: readonly LearnedListField[],
  at: Observation,
): void {
  const op = operationById(doc, operationId);
  if (!op) return;
  op['x-filterable'] = observed
    .filter((f) => f.operators.length > 0)
    .map((f) => ({
      field: f.query,
      ...(f.query !== f.name ? { member: f.name } : {}),
      type: f.type,
      operators: [...f.operators],
    }));
  op['x-sortable'] = observed.filter((f) => f.sortable).map((f) => f.query);
  const list = isPlainObject(op['x-list']) ? op['x-list'] : op;
  markObserved(list, at, id, {
    filterable: inferred.filter((f) => f.operators.length > 0).map((f) => f.name),
    sortable: inferred.filter((f) => f.sortable).map((f) => f.name),
  });
}
