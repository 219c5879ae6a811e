import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { OperationDef } from '../../spec/operations/index.js';

type Json = Record<string, unknown>;

/**
 * The success response schema of an operation, fully inlined and simplified for Fastify's precompiled serializer
 * (fast-json-stringify): `$ref`s resolved, extension keywords dropped, `anyOf [T, null]` turned into `type: [T, "null"]`.
 * Compiled once at start-up, it replaces `JSON.stringify` on the hot path; problems keep the generic serializer.
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
        out.properties = Object.fromEntries(Object.entries(value as Json).map(([name, prop]) => [name, inline(prop, depth + 1)]));
      } else if (!key.startsWith('x-') && key !== 'examples') out[key] = inline(value, depth + 1);
    }
    const anyOf = out.anyOf as Json[] | undefined;
    if (anyOf && anyOf.every((s) => typeof s.type === 'string' && Object.keys(s).every((k) => k === 'type' || k === 'const' || k === 'minimum' || k === 'minLength'))) {
      // A union of simple types or literals: a type list serialises the same values without a runtime schema check.
      const types = [...new Set(anyOf.map((s) => s.type as string))];
      delete out.anyOf;
      out.type = types.length === 1 ? types[0] : types;
    }
    return out;
  };
  return { [String(op.success.status)]: inline(schemas[op.success.schema], 0) as Json };
}
