import fastJsonStringify, { type Schema } from 'fast-json-stringify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { OperationDef } from '../../spec/operations/index.js';

type Json = Record<string, unknown>;

/** Serializers compiled in this process, by the text of their schema (a few per contract: one per success answer). */
const compiled = new Map<string, (data: unknown) => string>();

/**
 * Fastify's serializer compiler for the operations' success answers, with every serializer compiled once per process
 * (fast-json-stringify, as Fastify's default does): a mock built again (the Testing API's startMock, a test's mock)
 * reuses them. Why (inferred; measured): compiling them was ~6% of the unit tests' CPU. The schemas are fully inlined
 * (successSerializerSchema), so no shared schema of the Fastify instance is needed.
 */
export function cachedSerializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  const key = JSON.stringify(schema);
  let serialize = compiled.get(key);
  if (!serialize) {
    // Compiled on first use, not at start-up: a mock answers few of its ~20 operations in most runs, and compiling
    // all of them was ~20 ms of each start (measured with --cpu-prof on the compiled CLI).
    let compiledFn: ((data: unknown) => string) | undefined;
    serialize = (data) => {
      compiledFn ??= fastJsonStringify(schema as Schema) as (data: unknown) => string;
      return compiledFn(data);
    };
    compiled.set(key, serialize);
  }
  return serialize;
}

/**
 * The success response schema of an operation, fully inlined and simplified for Fastify's precompiled serializer
 * (fast-json-stringify): `$ref`s resolved, extension keywords dropped, `anyOf [T, null]` turned into `type: [T, "null"]`,
 * and every object closed (`additionalProperties: false`).
 * Compiled once at start-up, it replaces `JSON.stringify` on the hot path; problems keep the generic serializer.
 *
 * Why closed: the contract's response objects are open ("Other SKU fields: not shown": a real server may send more),
 * but the mock sends exactly the fields the contract names. fast-json-stringify writes the members an open schema
 * allows, so an open view would start sending whatever a stored record carries besides its contract fields;
 * closed, it writes only the named ones (and the members of free-form records such as `data`, via patternProperties).
 */
export function successSerializerSchema(document: OpenAPIObject, op: OperationDef): Record<string, Json> | undefined {
  if (!op.success.schema) return undefined;
  const schemas = (document.components?.schemas ?? {}) as Record<string, Json>;
  const inline = (node: unknown, depth: number): unknown => {
    if (depth > 32) throw new Error('schema too deep to inline');
    if (Array.isArray(node)) return node.map((n) => inline(n, depth + 1));
    if (!node || typeof node !== 'object') return node;
    const obj = node as Json;
    if (typeof obj.$ref === 'string') {
      const name = obj.$ref.replace('#/components/schemas/', '');
      return inline(schemas[name], depth + 1);
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(obj)) {
      if (key === 'properties' && value && typeof value === 'object') {
        // Property names are data, not keywords: keep every one.
        out.properties = Object.fromEntries(
          Object.entries(value as Json).map(([name, prop]) => [name, inline(prop, depth + 1)]),
        );
      } else if (key === 'additionalProperties') {
        // An opening of the contract (spec/schemas/open.ts) is not the mock's: it sends only the named fields.
        out.additionalProperties = false;
      } else if (!key.startsWith('x-') && key !== 'examples') out[key] = inline(value, depth + 1);
    }
    const anyOf = out.anyOf as Json[] | undefined;
    if (
      anyOf?.every(
        (s) =>
          typeof s.type === 'string' &&
          Object.keys(s).every((k) => k === 'type' || k === 'const' || k === 'minimum' || k === 'minLength'),
      )
    ) {
      // A union of simple types or literals: a type list serialises the same values without a runtime schema check.
      const types = [...new Set(anyOf.map((s) => s.type as string))];
      delete out.anyOf;
      out.type = types.length === 1 ? types[0] : types;
    }
    return out;
  };
  return { [String(op.success.status)]: inline(schemas[op.success.schema], 0) as Json };
}
