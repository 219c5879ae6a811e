/**
 * Members of a JSON value that its schema does not name, found by walking the value alongside the schema's
 * `properties` (the "closed view" of an open schema, derived from the schema itself rather than a second copy).
 *
 * Why: response objects are open where the reference says other fields are "not shown" (spec/schemas/open.ts), so
 * a server's extra fields pass validation; the conformance runner still lists them as information.
 *
 * Rules (inferred):
 * - An object is walked against every schema that applies to it: through `$ref`, `allOf`, `anyOf` and `oneOf`
 *   (a member named by any branch is known: the validator already judged which branch matched).
 * - A member named by `properties` or matched by `patternProperties` is known, and its value is walked further.
 * - Where a schema has `additionalProperties: false`, an unnamed member is a validation failure, not information:
 *   it is not listed here.
 * - An object whose schemas name no member at all (a free-form record such as `Problem.parameters` or an opening's
 *   own value) holds data, not fields: nothing in it is listed.
 * - An unknown member is listed once; what it holds is not walked.
 */

type Node = Record<string, unknown>;

/** Resolves a `$ref` to its schema node, or undefined when it points nowhere. */
export type RefResolver = (ref: string) => unknown;

/** Deepest nesting walked (schemas and values); deeper parts are not inspected. */
const MAX_DEPTH = 64;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member name as a path segment: `.name`, or `["odd name"]` when it is not identifier-like. */
function segment(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

/** Every schema node that applies to a value: the node itself, what it references, and its `allOf`/`anyOf`/`oneOf` branches. */
function views(schema: unknown, resolve: RefResolver, out: Node[] = [], depth = 0): Node[] {
  if (!isObject(schema) || depth > MAX_DEPTH || out.includes(schema)) return out;
  out.push(schema);
  if (typeof schema.$ref === 'string') views(resolve(schema.$ref), resolve, out, depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const branch of branches) views(branch, resolve, out, depth + 1);
  }
  return out;
}

/** The schemas of one member of an object, from every view that names or matches it. */
function memberSchemas(name: string, objectViews: Node[]): { named: boolean; schemas: unknown[] } {
  const schemas: unknown[] = [];
  let named = false;
  for (const view of objectViews) {
    const properties = view.properties;
    if (isObject(properties) && Object.hasOwn(properties, name)) {
      named = true;
      schemas.push(properties[name]);
    }
    const patterns = view.patternProperties;
    if (isObject(patterns)) {
      for (const [pattern, schema] of Object.entries(patterns)) {
        if (matches(pattern, name)) {
          named = true;
          schemas.push(schema);
        }
      }
    }
  }
  return { named, schemas };
}

const PATTERNS = new Map<string, RegExp | null>();

function matches(pattern: string, name: string): boolean {
  let re = PATTERNS.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    PATTERNS.set(pattern, re);
  }
  return re?.test(name) === true;
}

function walk(
  schemas: unknown[],
  value: unknown,
  path: string,
  resolve: RefResolver,
  out: string[],
  depth: number,
): void {
  if (depth > MAX_DEPTH) return;
  const all: Node[] = [];
  for (const s of schemas) views(s, resolve, all);
  if (Array.isArray(value)) {
    const items = all.map((v) => v.items).filter((s) => s !== undefined && typeof s !== 'boolean');
    if (items.length === 0) return;
    for (const [i, element] of value.entries()) walk(items, element, `${path}[${i}]`, resolve, out, depth + 1);
    return;
  }
  if (!isObject(value)) return;
  const declares = all.some((v) => isObject(v.properties) || isObject(v.patternProperties));
  if (!declares) return;
  const closed = all.some((v) => v.additionalProperties === false);
  for (const [name, member] of Object.entries(value)) {
    const { named, schemas: memberViews } = memberSchemas(name, all);
    const where = `${path}${segment(name)}`;
    if (named) walk(memberViews, member, where, resolve, out, depth + 1);
    else if (!closed) out.push(where.replace(/^\./, ''));
  }
}

/**
 * Paths of the members of `value` that `schema` does not name, e.g. `results[0].warehouseZone` or `warehouseZone`
 * at the top level, in document order.
 */
export function unknownFields(schema: unknown, value: unknown, resolve: RefResolver): string[] {
  const out: string[] = [];
  walk([schema], value, '', resolve, out, 0);
  return out;
}

/** A path with its array indexes removed (`results[3].x` -> `results[].x`): one entry per field, not per item. */
export function fieldOf(path: string): string {
  return path.replace(/\[\d+\]/g, '[]');
}

/** A resolver of local `$ref`s (`#/components/schemas/Problem`) inside a document. */
export function documentResolver(document: unknown): RefResolver {
  return (ref) => {
    if (!ref.startsWith('#')) return undefined;
    let node: unknown = document;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(node) && !Array.isArray(node)) return undefined;
      node = (node as Node)[key];
    }
    return node;
  };
}
