import { describe, expect, it } from 'vitest';
import { longestJsonText } from '../json-text-size.js';
import { sharedContract } from '../shared-contract.js';
import { documentResolver } from '../unknown-fields.js';

const none = () => undefined;

describe('longestJsonText', () => {
  it('counts a string as its quotes and six bytes per code unit, a number as 32 bytes', () => {
    expect(longestJsonText({ type: 'string', maxLength: 3 }, none)).toBe(20);
    expect(longestJsonText({ type: 'string', format: 'date' }, none)).toBe(62);
    expect(longestJsonText({ type: 'number' }, none)).toBe(32);
    expect(longestJsonText({ type: ['boolean', 'null'] }, none)).toBe(5);
  });

  it('counts a closed object member by member, an array by its items, a choice by its longest branch', () => {
    const closed = {
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'boolean' }, b: { type: 'null' } },
    };
    // {"a":false,"b":null} with both names escaped: 2 braces, 1 comma, 2 × (3 × 6 + 1) for names and colons, 5 + 4.
    expect(longestJsonText(closed, none)).toBe(2 + 1 + 2 * 19 + 5 + 4);
    expect(longestJsonText({ type: 'array', maxItems: 2, items: { type: 'null' } }, none)).toBe(2 + 2 * 5);
    expect(longestJsonText({ anyOf: [{ type: 'null' }, { type: 'number' }] }, none)).toBe(32);
  });

  it('is Infinity where the schema does not bound the text', () => {
    for (const schema of [
      { type: 'string' },
      { type: 'array', items: { type: 'null' } },
      { type: 'object', properties: {} },
      { type: 'object', additionalProperties: false, patternProperties: { x: {} } },
      {},
      true,
    ])
      expect(longestJsonText(schema, none), JSON.stringify(schema)).toBe(Number.POSITIVE_INFINITY);
  });

  it('bounds the longest valid value of every request body of the contract', () => {
    const { document, validator } = sharedContract();
    const resolve = documentResolver(document);
    const bodies = new Set<string>();
    for (const path of Object.values(document.paths ?? {}))
      for (const op of Object.values(
        path as Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>,
      )) {
        const ref = op.requestBody?.content['application/json']?.schema.$ref;
        if (ref) bodies.add(ref.split('/').pop()!);
      }
    expect(bodies.size).toBeGreaterThan(4);
    for (const name of bodies) {
      const schema = resolve(`#/components/schemas/${name}`) as { properties: Record<string, Record<string, unknown>> };
      const longest = Object.fromEntries(Object.entries(schema.properties).map(([key, s]) => [key, worstValue(s)]));
      expect(validator.firstError(name, longest), name).toBeNull();
      const bound = longestJsonText({ $ref: `#/components/schemas/${name}` }, resolve);
      expect(Number.isFinite(bound), name).toBe(true);
      expect(JSON.stringify(longest).length, name).toBeLessThanOrEqual(bound);
    }
  });
});

/** The valid value of a field schema whose JSON text is longest (escaped characters, the longest doubles). */
function worstValue(schema: Record<string, unknown>): unknown {
  switch (schema.type) {
    case 'string':
      return schema.format === 'date' ? '2026-11-27' : '\u0001'.repeat(Number(schema.maxLength));
    case 'integer':
      return typeof schema.maximum === 'number' ? schema.maximum : Number.MAX_SAFE_INTEGER;
    case 'number':
      return 2.2250738585072014e-308;
    case 'boolean':
      return false;
    default:
      throw new Error(`no worst value for ${JSON.stringify(schema)}`);
  }
}
