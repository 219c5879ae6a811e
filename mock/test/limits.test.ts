import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../spec/build.js';
import { DEMO_WORLD } from '../../spec/examples/demo-world.js';
import {
  docOperation,
  docOperations,
  exampleRequest,
  resolveParameter,
  type DocOperation,
} from '../../spec/test/example-requests.js';
import { adminClaims } from '../auth/presets.js';
import { expectProblem, injectHarness, type InjectHarness, type Reply } from './harness.js';

/**
 * Limits the contract declares are the limits the mock enforces: each bound is read from the document, then probed
 * at the bound (accepted) and one past it (400 COMMON.VALIDATION.ERROR naming the field).
 */
const doc = buildDocument();
const operations = docOperations(doc);
const queryLists = operations.filter((o) => o.op['x-list']?.parametersIn === 'query');
const search = docOperation(doc, 'searchFamilies');
const schemas = doc.components?.schemas as Record<string, any>;

/** The declared schema of a query parameter of an operation. */
const paramSchema = (op: DocOperation, name: string): Record<string, any> =>
  (op.op.parameters as Record<string, any>[]).map((p) => resolveParameter(doc, p)).find((p) => p.name === name)!.schema;

/** `Field[Contains]` on the first text field of the list that takes Contains. */
function containsHead(op: DocOperation): string {
  const field = (op.op['x-filterable'] as { field: string; operators: string[] }[]).find((f) =>
    f.operators.includes('Contains'),
  )!.field;
  return `${field}[Contains]`;
}

/** A valid filter of exactly `length` characters. */
const filterOf = (op: DocOperation, length: number): string =>
  containsHead(op) + 'x'.repeat(length - containsHead(op).length);

/** A valid sort of exactly `length` characters: the first sortable field, padded with the blanks a segment may carry. */
const sortOf = (op: DocOperation, length: number): string => {
  const field = (op.op['x-sortable'] as string[])[0]!;
  return field + ' '.repeat(length - field.length);
};

/** Every string property of a request body schema that declares a maxLength, with its operation. */
const boundedBodyStrings = operations.flatMap((op) => {
  const ref = op.op.requestBody?.content['application/json'].schema.$ref as string | undefined;
  if (!ref) return [];
  const schema = schemas[ref.replace('#/components/schemas/', '')];
  return Object.entries<Record<string, any>>(schema.properties)
    .filter(([, p]) => p.type === 'string' && typeof p.maxLength === 'number')
    .map(([name, p]) => ({ op, name, maxLength: p.maxLength as number }));
});

describe('declared limits are enforced limits', () => {
  let h: InjectHarness;
  let token: string;

  /** Sends an operation's example request, with parameters or body fields replaced. */
  function call(op: DocOperation, values: Record<string, unknown>, body?: unknown): Promise<Reply> {
    const req = exampleRequest(doc, op, { withOptional: false, values });
    return h.call(req.method, req.url, {
      token,
      op: op.operationId,
      ...(body !== undefined ? { body } : req.body !== undefined ? { body: req.body } : {}),
    });
  }

  /** The example body of an operation with one field replaced. */
  const bodyWith = (op: DocOperation, field: string, value: unknown): Record<string, unknown> => ({
    ...(op.op.requestBody.content['application/json'].example as Record<string, unknown>),
    [field]: value,
  });

  function expectRefused(reply: Reply, field: string, bound: number): void {
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    expect(reply.body.parameters.field).toBe(field);
    expect(reply.body.detail).toContain(field);
    expect(reply.body.detail).toContain(String(bound));
  }

  beforeAll(async () => {
    h = await injectHarness();
    // The examples address tenant `demo`; a subscription and a stock update give the attempts list a notification.
    token = await h.token(adminClaims(DEMO_WORLD.org));
    expect((await h.call('POST', '/__mock/reset', { token, body: {} })).status).toBe(200);
    for (const id of ['createWebhookSubscription', 'updateSkuStock']) {
      const op = docOperation(doc, id);
      expect((await call(op, {})).status).toBe(op.successStatus);
    }
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('filterBy in the query string', () => {
    it.each(queryLists.map((op) => [op.operationId, op] as const))(
      '%s accepts a filter of exactly its maxLength',
      async (_id, op) => {
        const max = paramSchema(op, 'filterBy').maxLength as number;
        expect(max).toBe(4096);
        expect((await call(op, { filterBy: filterOf(op, max) })).status).toBe(200);
      },
    );

    it.each(queryLists.map((op) => [op.operationId, op] as const))(
      '%s refuses one character more with 400 naming filterBy',
      async (_id, op) => {
        const max = paramSchema(op, 'filterBy').maxLength as number;
        expectRefused(await call(op, { filterBy: filterOf(op, max + 1) }), 'filterBy', max);
      },
    );
  });

  describe('sortBy in the query string', () => {
    it.each(queryLists.map((op) => [op.operationId, op] as const))(
      '%s accepts exactly its maxLength and refuses one more',
      async (_id, op) => {
        const max = paramSchema(op, 'sortBy').maxLength as number;
        expect((await call(op, { sortBy: sortOf(op, max) })).status).toBe(200);
        expectRefused(await call(op, { sortBy: sortOf(op, max + 1) }), 'sortBy', max);
      },
    );
  });

  describe('pageNumber', () => {
    const max = (doc.components?.parameters as Record<string, any> | undefined)?.PageNumber.schema.maximum as number;

    it('declares a maximum that a double holds exactly', () => {
      expect(max).toBe(2147483647);
    });

    it.each(queryLists.map((op) => [op.operationId, op] as const))(
      '%s answers the page at the maximum, empty',
      async (_id, op) => {
        const reply = await call(op, { pageNumber: max });
        expect(reply.status).toBe(200);
        expect(reply.body.pageNumber).toBe(max);
        expect(reply.body.results).toEqual([]);
      },
    );

    it.each(['2147483648', '9007199254740993', '99999999999999999999'])(
      'refuses %s with a detail naming the real bound',
      async (value) => {
        expectRefused(await call(docOperation(doc, 'listSkus'), { pageNumber: value }), 'pageNumber', max);
      },
    );
  });

  describe('the search body', () => {
    const body = schemas.ListBody.properties;

    it('declares the same bounds as the query parameters', () => {
      const skus = docOperation(doc, 'listSkus');
      expect(body.filterBy.maxLength).toBe(paramSchema(skus, 'filterBy').maxLength);
      expect(body.sortBy.maxLength).toBe(paramSchema(skus, 'sortBy').maxLength);
      expect(body.pageNumber.maximum).toBe(paramSchema(skus, 'pageNumber').maximum);
    });

    it('accepts a filterBy of exactly its maxLength and refuses one character more', async () => {
      const max = body.filterBy.maxLength as number;
      expect((await call(search, {}, bodyWith(search, 'filterBy', filterOf(search, max)))).status).toBe(200);
      expectRefused(await call(search, {}, bodyWith(search, 'filterBy', filterOf(search, max + 1))), 'filterBy', max);
    });

    it('counts characters as JSON Schema does: code points, not UTF-16 units', async () => {
      // In a body: 4096 non-ASCII characters percent-encoded in a query string exceed the server's request line limit.
      const max = body.filterBy.maxLength as number;
      const head = containsHead(search);
      const nuts = `${head}${'\u{1F529}'.repeat(max - head.length)}`;
      expect(nuts.length).toBeGreaterThan(max);
      expect((await call(search, {}, bodyWith(search, 'filterBy', nuts))).status).toBe(200);
      expectRefused(await call(search, {}, bodyWith(search, 'filterBy', `${nuts}\u{1F529}`)), 'filterBy', max);
    });

    it('accepts a sortBy of exactly its maxLength and refuses one character more', async () => {
      const max = body.sortBy.maxLength as number;
      expect((await call(search, {}, bodyWith(search, 'sortBy', sortOf(search, max)))).status).toBe(200);
      expectRefused(await call(search, {}, bodyWith(search, 'sortBy', sortOf(search, max + 1))), 'sortBy', max);
    });

    it('answers the page at the pageNumber maximum and refuses one more', async () => {
      const max = body.pageNumber.maximum as number;
      const page = await call(search, {}, bodyWith(search, 'pageNumber', max));
      expect(page.status).toBe(200);
      expect(page.body.results).toEqual([]);
      expectRefused(await call(search, {}, bodyWith(search, 'pageNumber', max + 1)), 'pageNumber', max);
    });
  });

  describe('free strings of request bodies', () => {
    it('all declare a maxLength', () => {
      const unbounded = operations.flatMap((op) => {
        const ref = op.op.requestBody?.content['application/json'].schema.$ref as string | undefined;
        if (!ref) return [];
        const props = schemas[ref.replace('#/components/schemas/', '')].properties as Record<string, any>;
        return Object.entries(props)
          .filter(([, p]) => p.type === 'string' && p.format === undefined && p.maxLength === undefined)
          .map(([name]) => `${op.operationId}.${name}`);
      });
      expect(unbounded).toEqual([]);
      expect(boundedBodyStrings.length).toBeGreaterThanOrEqual(11);
    });

    it.each(boundedBodyStrings.map((b) => [`${b.op.operationId} ${b.name}`, b] as const))(
      '%s passes validation at its maxLength and is refused one character over',
      async (_name, { op, name, maxLength }) => {
        // The example value padded (a URL stays a URL); at the bound the answer may still be a domain error (an
        // unknown location, an unparsable filter), never a validation error.
        const example = (op.op.requestBody.content['application/json'].example as Record<string, unknown>)[name];
        const base = typeof example === 'string' ? example : '';
        const atBound = await call(op, {}, bodyWith(op, name, base + 'x'.repeat(maxLength - base.length)));
        expect(atBound.status, atBound.text).toBeLessThan(500);
        expect(atBound.body?.code, atBound.text).not.toBe('COMMON.VALIDATION.ERROR');
        expectRefused(
          await call(op, {}, bodyWith(op, name, base + 'x'.repeat(maxLength + 1 - base.length))),
          name,
          maxLength,
        );
      },
    );
  });
});
