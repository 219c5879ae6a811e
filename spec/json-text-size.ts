import type { RefResolver } from './unknown-fields.js';

/**
 * The length in bytes of the longest compact JSON text a value valid against a schema can take, or Infinity when the
 * schema does not bound it (a string without `maxLength`, an array without `maxItems`, an object open to members it
 * does not name).
 *
 * Why: the reference leaves "maximum request body sizes" unshown (Rate limits and sizes), and every request body of the
 * contract is a closed object of bounded fields, so what a valid body can need is known from its schema; the mock
 * refuses a larger body before reading it (mock/http/body-limits.ts).
 *
 * Worst cases counted (inferred, from RFC 8259):
 * - a string: its quotes and 6 bytes per UTF-16 code unit (`\uXXXX`, the longest escape; a character of 4 UTF-8
 *   bytes is 2 code units); a `date` is 10 code units, a `date-time` at most 35 (RFC 3339 with fractions and offset);
 * - a number: 32 bytes (the longest shortest-form double, `-2.2250738585072014e-308`, is 24); a boolean 5, null 4;
 * - an enum or const: six times its longest member's serialised length (a bound over any escaping of it);
 * - an object: braces, every named member (its quoted name, a colon, its value) and the commas between them;
 * - `anyOf`/`oneOf`: the longest branch; `allOf`: the shortest (every branch must hold); `$ref`: its target.
 * Whitespace between tokens is not counted: a caller allows for it.
 */
export function longestJsonText(schema: unknown, resolve: RefResolver): number {
  return measure(schema, resolve, 0);
}

const NUMBER_BYTES = 32;
const BYTES_PER_CODE_UNIT = 6;
/** Deepest nesting followed; a deeper (or recursive) schema is taken as unbounded. */
const MAX_DEPTH = 32;
const FORMAT_LENGTHS: Readonly<Record<string, number>> = { date: 10, 'date-time': 35 };

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

function measure(schema: unknown, resolve: RefResolver, depth: number): number {
  if (schema === true || schema === undefined) return Number.POSITIVE_INFINITY;
  if (!isNode(schema) || depth > MAX_DEPTH) return Number.POSITIVE_INFINITY;
  if (typeof schema.$ref === 'string') return measure(resolve(schema.$ref), resolve, depth + 1);
  const longestOf = (values: readonly unknown[]) => Math.max(...values.map((v) => JSON.stringify(v).length * 6));
  if (Array.isArray(schema.enum)) return longestOf(schema.enum);
  if ('const' in schema) return longestOf([schema.const]);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) return Math.max(...branches.map((b) => measure(b, resolve, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) return Math.min(...schema.allOf.map((b) => measure(b, resolve, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return Math.max(...types.map((type) => measureType(schema, type, resolve, depth)));
}

function measureType(schema: Node, type: unknown, resolve: RefResolver, depth: number): number {
  switch (type) {
    case 'string': {
      const length =
        typeof schema.maxLength === 'number' ? schema.maxLength : (FORMAT_LENGTHS[String(schema.format)] ?? Infinity);
      return 2 + BYTES_PER_CODE_UNIT * length;
    }
    case 'number':
    case 'integer':
      return NUMBER_BYTES;
    case 'boolean':
      return 5;
    case 'null':
      return 4;
    case 'array': {
      if (typeof schema.maxItems !== 'number') return Number.POSITIVE_INFINITY;
      const item = schema.maxItems === 0 ? 0 : measure(schema.items, resolve, depth + 1);
      return 2 + schema.maxItems * (item + 1);
    }
    case 'object': {
      if (schema.additionalProperties !== false || schema.patternProperties !== undefined)
        return Number.POSITIVE_INFINITY;
      const members = Object.entries(isNode(schema.properties) ? schema.properties : {});
      let total = 2 + Math.max(0, members.length - 1);
      for (const [name, member] of members)
        total += JSON.stringify(name).length * 6 + 1 + measure(member, resolve, depth + 1);
      return total;
    }
    default:
      return Number.POSITIVE_INFINITY;
  }
}
