import { describe, expect, it } from 'vitest';
import { committedDocument, operations } from './load.js';
import {
  DOCUMENTED_ERROR_STATUSES,
  DOCUMENTED_PERMISSIONS,
  PAIR_OPERATIONS,
  SUCCESS_BODIES_SHOWN,
  SUCCESS_STATUSES_SHOWN,
} from './reference-facts.js';

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

  it('tells documented from inferred: a success body the reference gives under a status it does not give', () => {
    const stock = doc.paths['/v1/items/skus/{skuReference}/stock'].put.responses['204'];
    expect([stock['x-provenance'], stock['x-body-provenance'], stock['x-no-body']]).toEqual([
      'inferred',
      'documented',
      true,
    ]);
    const key = doc.paths['/v1/access/apiKeys'].post.responses['201'];
    expect([key['x-provenance'], key['x-body-provenance']]).toEqual(['inferred', 'documented']);
    const entry = doc.paths['/v1/errors/{errorCode}'].get.responses['200'];
    expect([entry['x-provenance'], entry['x-body-provenance']]).toEqual(['documented', 'documented']);
    expect(doc.paths['/v1/items/skus'].get['x-provenance']).toBe('inferred');
  });

  it('marks every response with the provenance of its body: every error body is a documented problem', () => {
    for (const { key, op } of operations(doc as never))
      for (const [status, response] of Object.entries<any>(op.responses)) {
        expectMarked(response, `${key} ${status} body`, 'x-body-provenance', 'x-body-rationale');
        if (Number(status) >= 400) expect(response['x-body-provenance'], `${key} ${status}`).toBe('documented');
      }
  });

  it('marks the inferred details of documented fields beside their keywords (the reference says "integer", not ">= 1")', () => {
    const s = doc.components.schemas;
    expect(s.Subscription.properties.eventVersion).toMatchObject({
      type: 'integer',
      minimum: 1,
      'x-provenance': 'documented',
      'x-minimum-provenance': 'inferred',
    });
    expect(s.EventDescriptor.properties.eventName).toMatchObject({
      'x-provenance': 'documented',
      'x-pattern-provenance': 'inferred',
    });
    expect(s.ErrorCatalogEntry.properties.status['x-provenance']).toBe('inferred');
  });

  it('documents a success status only where the reference gives one, and a success body only where it shows one', () => {
    for (const { key, op } of operations(doc as never)) {
      const [status, success] = Object.entries<any>(op.responses).find(([s]) => /^2/.test(s)) ?? [];
      const shownStatus = SUCCESS_STATUSES_SHOWN[key];
      expect(success['x-provenance'], `${key} ${status}`).toBe(shownStatus === undefined ? 'inferred' : 'documented');
      if (shownStatus !== undefined) expect(Number(status), key).toBe(shownStatus);
      const shownBody = SUCCESS_BODIES_SHOWN[key];
      expect(success['x-body-provenance'], `${key} body`).toBe(shownBody === undefined ? 'inferred' : 'documented');
      if (shownBody === null) expect(success.content, key).toBeUndefined();
      else if (shownBody !== undefined)
        expect(success.content['application/json'].schema.$ref, key).toBe(`#/components/schemas/${shownBody}`);
    }
  });

  it('documents an error status of an operation only where the reference gives it for that operation', () => {
    for (const { key, op } of operations(doc as never)) {
      const shown = new Set([
        401,
        429,
        ...(DOCUMENTED_ERROR_STATUSES[key] ?? []),
        ...(PAIR_OPERATIONS[key] ?? []),
        ...(DOCUMENTED_PERMISSIONS[key] ? [403] : []),
      ]);
      for (const [status, response] of Object.entries<any>(op.responses))
        if (Number(status) >= 400)
          expect(response['x-provenance'], `${key} ${status}`).toBe(
            shown.has(Number(status)) ? 'documented' : 'inferred',
          );
    }
  });
});
