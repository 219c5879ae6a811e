import { describe, expect, it } from 'vitest';
import { committedDocument, operations } from './load.js';

const doc = committedDocument() as Record<string, any>;

/** Asserts an object carries a valid provenance mark: documented, or inferred with a rationale. */
function expectMarked(
  node: Record<string, any>,
  where: string,
  key = 'x-provenance',
  rationaleKey = 'x-rationale',
): void {
  expect(['documented', 'inferred'], `${where} has no ${key}`).toContain(node[key]);
  if (node[key] === 'inferred')
    expect(
      typeof node[rationaleKey] === 'string' && node[rationaleKey].length > 10,
      `${where} is inferred without ${rationaleKey}`,
    ).toBe(true);
}

/** Every property of every object schema below `schema`. */
function* properties(schema: any, where: string): Generator<[string, any]> {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    for (const [name, prop] of Object.entries<any>(schema.properties)) {
      yield [`${where}.${name}`, prop];
      yield* properties(prop, `${where}.${name}`);
    }
  }
  for (const key of ['items', 'additionalProperties'])
    if (schema[key] && typeof schema[key] === 'object') yield* properties(schema[key], `${where}[${key}]`);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    for (const [i, sub] of (schema[key] ?? []).entries()) yield* properties(sub, `${where}.${key}${i}`);
}

describe('provenance marks', () => {
  it('are on every operation, with its permission and its API key acceptance', () => {
    for (const { key, op } of operations(doc as never)) {
      expectMarked(op, key);
      expectMarked(op, `${key} permission`, 'x-permission-provenance', 'x-permission-rationale');
      expectMarked(op, `${key} api key`, 'x-api-key-provenance', 'x-api-key-rationale');
    }
  });

  it('are on every response, request body and path parameter', () => {
    for (const { key, op } of operations(doc as never)) {
      for (const [status, response] of Object.entries<any>(op.responses)) expectMarked(response, `${key} ${status}`);
      if (op.requestBody) expectMarked(op.requestBody, `${key} body`);
      for (const p of op.parameters) if (!p.$ref) expectMarked(p, `${key} ${p.name}`);
    }
  });

  it('are on every component schema and every one of their properties, at any depth', () => {
    let count = 0;
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) {
      expectMarked(schema, name);
      for (const [where, prop] of properties(schema, name)) {
        expectMarked(prop, where);
        count++;
      }
    }
    expect(count).toBeGreaterThan(300);
  });

  it('are on every catalog entry, for its text and its status', () => {
    for (const entry of doc['x-error-catalog']) {
      expect(entry['x-provenance'], entry.code).toBe('documented');
      expectMarked(entry, `${entry.code} text`, 'x-text-provenance', 'x-text-rationale');
      expectMarked(entry, `${entry.code} status`, 'x-status-provenance', 'x-status-rationale');
    }
  });

  it('are on the shared list parameters, security schemes and webhooks', () => {
    for (const [name, p] of Object.entries<any>(doc.components.parameters)) expectMarked(p, name);
    for (const [name, s] of Object.entries<any>(doc.components.securitySchemes)) expectMarked(s, name);
    for (const [name, w] of Object.entries<any>(doc.webhooks)) {
      expectMarked(w.post, name);
      for (const p of w.post.parameters) expectMarked(p, `${name} ${p.name}`);
    }
  });

  it('tells documented from inferred: the stock 204 is documented, the key creation 201 is inferred', () => {
    expect(doc.paths['/v1/items/skus/{skuReference}/stock'].put.responses['204']['x-provenance']).toBe('documented');
    expect(doc.paths['/v1/access/apiKeys'].post.responses['201']['x-provenance']).toBe('inferred');
    expect(doc.paths['/v1/items/skus'].get['x-provenance']).toBe('inferred');
  });
});
