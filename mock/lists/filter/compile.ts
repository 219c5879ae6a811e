import type { ListField, ListFieldTable } from '../../../spec/lists/fields.js';
import type { FilterOperator } from '../../../spec/lists/operators.js';
import { extractor, type ColumnKind, type ColumnSource } from '../columns.js';
import { findField } from '../fieldIndex.js';
import { FILTER_PARSING_FAILED, fail, ok, type Result } from '../result.js';
import type { ConditionNode, FilterAst } from './ast.js';
import { parseDateValue } from '../dates.js';
import { parseBooleanValue, parseEnumValue, parseNumberValue } from './values.js';
import type { TextCase } from '../engine-options.js';

/**
 * Turns a filter syntax tree into a predicate over a field table.
 *
 * Checks, each failing with FILTER_PARSING_FAILED and a detail naming the field/operator:
 * the field exists (name matched ignoring case), is `filterable`, lists the operator in `field.operators`,
 * the operator has a meaning for the field type, and the value parses for the type.
 *
 * Semantics:
 * - Contains / StartsWith / EndsWith (string and enum fields): case-insensitive, on lowercased strings (inferred);
 *   with the engine option `textCase: 'sensitive'`, on the values as they are.
 * - Equals: strings and enums exact and case-sensitive; numbers numerically; booleans by value; dates the same
 *   instant for a date-time value, or the same UTC calendar day for a date-only value.
 * - Gt / Gte / Lt / Lte: numbers and dates. IsAfter / IsOnOrAfter / IsBefore / IsOnOrBefore: dates only
 *   (strictly after, on or after, strictly before, on or before). With a date-only value the item's UTC day is
 *   compared (Gt 2024-01-31 means a day after January 31st); with a date-time value the instant is compared.
 * - IsNull: the property is null or missing. IsNotNull: the opposite.
 * - Every other comparison against a null or missing property is false. A property whose value is not of the
 *   field's type (e.g. text in a number field, an unparseable date) never matches a comparison either, but is not null.
 */

/** One compiled condition: which derived column it reads and the test applied to that column value. */
interface Matcher {
  readonly field: ListField;
  readonly column: ColumnKind;
  readonly test: (value: unknown) => boolean;
  /** Set when `test` is `v === value` (never NaN): Equals terms of one column ORed together merge (`mergeEquals`). */
  readonly equals?: { readonly value: unknown };
}

/** The matcher of `column === value`. */
const equalTo = (field: ListField, column: ColumnKind, value: unknown): Matcher => ({
  field,
  column,
  test: (v) => v === value,
  equals: { value },
});

type Plan =
  | { readonly kind: 'condition'; readonly matcher: Matcher }
  | { readonly kind: 'and' | 'or'; readonly children: readonly Plan[] };

/** A compiled filter usable both on plain items and on a column source (by item position). */
export interface CompiledFilter {
  readonly ast: FilterAst;
  /** Tests one item. */
  readonly test: (item: Record<string, unknown>) => boolean;
  /** A predicate over positions of `source`, reading its cached columns. */
  bind(source: ColumnSource): (slot: number) => boolean;
}

class CompileFailure {
  constructor(
    readonly condition: ConditionNode,
    readonly detail: string,
  ) {}
}

const STRING_OPS = new Set<FilterOperator>(['Contains', 'StartsWith', 'EndsWith']);

function matcherFor(node: ConditionNode, field: ListField, textCase: TextCase, equalsCase: TextCase): Matcher {
  const op = node.operator;
  const text = node.value ?? '';
  const unsupported = (): never => {
    throw new CompileFailure(node, `Operator '${op}' is not supported for field '${field.name}' of type ${field.type}`);
  };
  const badValue = (expected: string): never => {
    throw new CompileFailure(
      node,
      `Invalid value '${text}' for field '${field.name}' with operator '${op}': expected ${expected}`,
    );
  };

  if (op === 'IsNull') return { field, column: 'raw', test: (v) => v === null };
  if (op === 'IsNotNull') return { field, column: 'raw', test: (v) => v !== null };

  if (STRING_OPS.has(op)) {
    if (field.type !== 'string' && field.type !== 'enum') return unsupported();
    // Case-sensitive: the raw column, a string where the property is one (the test below rejects anything else).
    const sensitive = textCase === 'sensitive';
    const needle = sensitive ? text : text.toLowerCase();
    const test =
      op === 'Contains'
        ? (v: unknown) => typeof v === 'string' && v.includes(needle)
        : op === 'StartsWith'
          ? (v: unknown) => typeof v === 'string' && v.startsWith(needle)
          : (v: unknown) => typeof v === 'string' && v.endsWith(needle);
    return { field, column: sensitive ? 'raw' : 'lower', test };
  }

  switch (field.type) {
    case 'string': {
      if (op !== 'Equals') return unsupported();
      if (equalsCase === 'sensitive') return equalTo(field, 'raw', text);
      // Observed at a deployment (point `equals-case`): Equals ignores case, on the lowercased column.
      return equalTo(field, 'lower', text.toLowerCase());
    }
    case 'enum': {
      if (op !== 'Equals') return unsupported();
      const value = parseEnumValue(text, field);
      if (value === undefined) return badValue(`one of ${(field.enumValues ?? []).join(', ')}`);
      return equalTo(field, 'raw', value);
    }
    case 'boolean': {
      if (op !== 'Equals') return unsupported();
      const value = parseBooleanValue(text);
      if (value === undefined) return badValue('true or false');
      return equalTo(field, 'raw', value);
    }
    case 'number': {
      const n = parseNumberValue(text);
      const num = (): number => (n === undefined ? badValue('a finite decimal number') : n);
      switch (op) {
        case 'Equals':
          return equalTo(field, 'raw', num());
        case 'Gt': {
          const x = num();
          return { field, column: 'raw', test: (v) => typeof v === 'number' && v > x };
        }
        case 'Gte': {
          const x = num();
          return { field, column: 'raw', test: (v) => typeof v === 'number' && v >= x };
        }
        case 'Lt': {
          const x = num();
          return { field, column: 'raw', test: (v) => typeof v === 'number' && v < x };
        }
        case 'Lte': {
          const x = num();
          return { field, column: 'raw', test: (v) => typeof v === 'number' && v <= x };
        }
        default:
          return unsupported();
      }
    }
    case 'date': {
      if (!['Equals', 'Gt', 'Gte', 'Lt', 'Lte', 'IsAfter', 'IsOnOrAfter', 'IsBefore', 'IsOnOrBefore'].includes(op))
        return unsupported();
      const value = parseDateValue(text);
      if (value === undefined)
        return badValue('an ISO 8601 date (2024-01-31) or date-time with zone (2024-01-31T10:00:00Z)');
      // A date-only value covers the UTC day [lo, hi); an instant is the degenerate range lo = hi = instant.
      // Millis columns hold NaN for null/invalid dates, for which every comparison below is false.
      const lo = value.kind === 'day' ? value.start : value.ms;
      const hi = value.kind === 'day' ? value.end : value.ms;
      const day = value.kind === 'day';
      let test: (v: number) => boolean;
      switch (op) {
        case 'Equals':
          test = day ? (v) => v >= lo && v < hi : (v) => v === lo;
          break;
        case 'Gt':
        case 'IsAfter':
          test = day ? (v) => v >= hi : (v) => v > lo;
          break;
        case 'Gte':
        case 'IsOnOrAfter':
          test = (v) => v >= lo;
          break;
        case 'Lt':
        case 'IsBefore':
          test = (v) => v < lo;
          break;
        default: // Lte, IsOnOrBefore
          test = day ? (v) => v < hi : (v) => v <= lo;
          break;
      }
      return { field, column: 'millis', test: test as (v: unknown) => boolean };
    }
  }
}

/**
 * The children of an OR with its Equals terms on one column merged into one lookup in a Set of their values (the
 * same answer: OR is order-free and `Set.has` is `===` for values that are not NaN). A filter of 250 names ORed is
 * then one lookup per item instead of 250 comparisons (inferred, measured: such filters were the costliest requests
 * of bench noisy-neighbour).
 */
function mergeEquals(children: Plan[]): Plan[] {
  const groups = new Map<string, Matcher[]>();
  const rest: Plan[] = [];
  for (const child of children) {
    if (child.kind !== 'condition' || child.matcher.equals === undefined) rest.push(child);
    else {
      const key = `${child.matcher.field.name}\u0000${child.matcher.column}`;
      const group = groups.get(key) ?? [];
      groups.set(key, group);
      group.push(child.matcher);
    }
  }
  for (const [first, ...more] of groups.values()) {
    if (!first) continue;
    if (more.length === 0) rest.push({ kind: 'condition', matcher: first });
    else {
      const values = new Set([first, ...more].map((m) => m.equals?.value));
      rest.push({
        kind: 'condition',
        matcher: { field: first.field, column: first.column, test: (v) => values.has(v) },
      });
    }
  }
  return rest;
}

function plan(node: FilterAst, fields: ListFieldTable, textCase: TextCase, equalsCase: TextCase): Plan {
  if (node.kind !== 'condition') {
    const children = node.children.map((c) => plan(c, fields, textCase, equalsCase));
    return { kind: node.kind, children: node.kind === 'or' ? mergeEquals(children) : children };
  }
  const field = findField(fields, node.field);
  if (!field) throw new CompileFailure(node, `Unknown filter field '${node.field}'`);
  if (!field.filterable) throw new CompileFailure(node, `Field '${field.name}' is not filterable`);
  if (!field.operators.includes(node.operator)) {
    throw new CompileFailure(
      node,
      `Operator '${node.operator}' is not allowed for field '${field.name}'; allowed: ${field.operators.join(', ')}`,
    );
  }
  return { kind: 'condition', matcher: matcherFor(node, field, textCase, equalsCase) };
}

type Pred<X> = (x: X) => boolean;

function combine<X>(kind: 'and' | 'or', preds: Pred<X>[]): Pred<X> {
  if (preds.length === 2) {
    const [a, b] = preds as [Pred<X>, Pred<X>];
    return kind === 'and' ? (x) => a(x) && b(x) : (x) => a(x) || b(x);
  }
  if (kind === 'and') {
    return (x) => {
      for (const p of preds) if (!p(x)) return false;
      return true;
    };
  }
  return (x) => {
    for (const p of preds) if (p(x)) return true;
    return false;
  };
}

function itemPredicate(p: Plan): Pred<Record<string, unknown>> {
  if (p.kind !== 'condition') return combine(p.kind, p.children.map(itemPredicate));
  const { test } = p.matcher;
  const get = extractor(p.matcher.field, p.matcher.column);
  return (item) => test(get(item));
}

function slotPredicate(p: Plan, source: ColumnSource): Pred<number> {
  if (p.kind !== 'condition')
    return combine(
      p.kind,
      p.children.map((c) => slotPredicate(c, source)),
    );
  const { test } = p.matcher;
  const column = source.column(p.matcher.field, p.matcher.column);
  return (slot) => test(column[slot]);
}

/** Compiles to a `CompiledFilter` (item and column forms). Never throws for bad input. */
export function compileFilterPlan(
  ast: FilterAst,
  fields: ListFieldTable,
  filterText?: string,
  textCase: TextCase = 'insensitive',
  equalsCase: TextCase = 'sensitive',
): Result<CompiledFilter> {
  let root: Plan;
  try {
    root = plan(ast, fields, textCase, equalsCase);
  } catch (e) {
    if (e instanceof CompileFailure) {
      const parameters: Record<string, string> = {
        position: String(e.condition.position),
        field: e.condition.field,
        operator: e.condition.operator,
      };
      if (filterText !== undefined) parameters.filterBy = filterText;
      return fail(FILTER_PARSING_FAILED, e.detail, parameters);
    }
    throw e;
  }
  return ok({
    ast,
    test: itemPredicate(root),
    bind: (source) => slotPredicate(root, source),
  });
}
