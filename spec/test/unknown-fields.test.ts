import { describe, expect, it } from 'vitest';
import { documentResolver, fieldOf, unknownFields } from '../unknown-fields.js';

const doc = {
  components: {
    schemas: {
      Item: {
        type: 'object',
        additionalProperties: true,
        required: ['id'],
        properties: {
          id: { type: 'string' },
          note: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          owner: { anyOf: [{ $ref: '#/components/schemas/Owner' }, { type: 'null' }] },
          tags: { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
          data: { type: 'object', patternProperties: { '^(.*)$': {} } },
          closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'integer' } } },
        },
      },
      Owner: { type: 'object', additionalProperties: true, properties: { name: { type: 'string' } } },
      Tag: { type: 'object', additionalProperties: true, properties: { label: { type: 'string' } } },
      Page: {
        type: 'object',
        additionalProperties: true,
        properties: {
          results: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          totalCount: { type: 'integer' },
        },
      },
      Tree: {
        type: 'object',
        additionalProperties: true,
        properties: { child: { $ref: '#/components/schemas/Tree' } },
      },
      Split: {
        allOf: [
          { type: 'object', properties: { a: {} } },
          { type: 'object', properties: { b: {} } },
        ],
      },
    },
  },
};
const resolve = documentResolver(doc);
const find = (name: string, value: unknown) => unknownFields({ $ref: `#/components/schemas/${name}` }, value, resolve);

describe('unknown-field detection', () => {
  it('finds nothing in a value that holds only named fields', () => {
    expect(
      find('Item', { id: '1', note: null, owner: { name: 'x' }, tags: [{ label: 'a' }], data: {}, closed: { a: 1 } }),
    ).toEqual([]);
  });

  it('names an unknown member at the top level without a leading dot', () => {
    expect(find('Item', { id: '1', warehouseZone: 'B2' })).toEqual(['warehouseZone']);
  });

  it('names unknown members inside array items with their index', () => {
    expect(find('Page', { results: [{ id: '1' }, { id: '2', warehouseZone: 'B2' }], totalCount: 2 })).toEqual([
      'results[1].warehouseZone',
    ]);
  });

  it('follows $ref, anyOf with null and nested arrays of objects', () => {
    const value = { id: '1', owner: { name: 'x', email: 'e' }, tags: [{ label: 'a', colour: 'red' }] };
    expect(find('Item', value)).toEqual(['owner.email', 'tags[0].colour']);
  });

  it('lists an unknown member once and does not walk what it holds', () => {
    expect(find('Item', { id: '1', extra: { deep: { deeper: 1 } } })).toEqual(['extra']);
  });

  it('treats the keys of a free-form record (patternProperties) as data, not fields', () => {
    expect(find('Item', { id: '1', data: { anything: 1, at: { all: true } } })).toEqual([]);
  });

  it('leaves members of a closed object to the validator (a failure, not information)', () => {
    expect(find('Item', { id: '1', closed: { a: 1, b: 2 } })).toEqual([]);
  });

  it('knows a member named by any branch of allOf', () => {
    expect(find('Split', { a: 1, b: 2, c: 3 })).toEqual(['c']);
  });

  it('walks a top-level array', () => {
    expect(
      unknownFields(
        { type: 'array', items: { $ref: '#/components/schemas/Tag' } },
        [{ label: 'a' }, { label: 'b', x: 1 }],
        resolve,
      ),
    ).toEqual(['[1].x']);
  });

  it('writes a member that is not identifier-like in brackets', () => {
    expect(find('Item', { id: '1', 'odd name': 1 })).toEqual(['["odd name"]']);
  });

  it('ignores values that are not objects and schemas it cannot resolve', () => {
    expect(find('Item', 'text')).toEqual([]);
    expect(find('Item', null)).toEqual([]);
    expect(find('Missing', { x: 1 })).toEqual([]);
  });

  it('stops at a bounded depth on a recursive schema and value', () => {
    let value: Record<string, unknown> = { extra: 1 };
    for (let i = 0; i < 200; i++) value = { child: value };
    expect(find('Tree', value)).toEqual([]);
    expect(find('Tree', { child: { child: { extra: 1 } } })).toEqual(['child.child.extra']);
  });

  it('turns a path into its field by dropping array indexes', () => {
    expect(fieldOf('results[12].owner.tags[3].colour')).toEqual('results[].owner.tags[].colour');
    expect(fieldOf('warehouseZone')).toEqual('warehouseZone');
  });
});
