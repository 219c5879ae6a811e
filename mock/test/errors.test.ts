import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { operation } from '../../spec/operations/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

describe('request errors', () => {
  let h: InjectHarness;
  let m: FixtureManifest;

  beforeAll(async () => {
    h = await injectHarness({ bodyLimit: 2048 });
    m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
  });

  afterAll(async () => {
    await h?.close();
  });

  const stockPath = () => `/v1/items/skus/${m.sku.reference}/stock`;

  describe('bodies that fail validation give 400 COMMON.VALIDATION.ERROR naming the field', () => {
    const cases: {
      what: string;
      operationId: string;
      method: string;
      path: () => string;
      raw?: string;
      body?: unknown;
      field: string;
    }[] = [
      {
        what: 'invalid JSON',
        operationId: 'createApiKey',
        method: 'POST',
        path: () => '/v1/access/apiKeys',
        raw: '{"name": ',
        field: '',
      },
      {
        what: 'a JSON array instead of an object',
        operationId: 'createApiKey',
        method: 'POST',
        path: () => '/v1/access/apiKeys',
        body: ['ci'],
        field: '',
      },
      {
        what: 'a wrong type (name: 5)',
        operationId: 'createApiKey',
        method: 'POST',
        path: () => '/v1/access/apiKeys',
        body: { name: 5 },
        field: 'name',
      },
      {
        what: 'a missing required field (name)',
        operationId: 'createApiKey',
        method: 'POST',
        path: () => '/v1/access/apiKeys',
        body: {},
        field: 'name',
      },
      {
        what: 'an unknown field',
        operationId: 'createApiKey',
        method: 'POST',
        path: () => '/v1/access/apiKeys',
        body: { name: 'ci', admin: true },
        field: 'admin',
      },
      {
        what: 'a wrong type (stock: "12")',
        operationId: 'updateSkuStock',
        method: 'PUT',
        path: stockPath,
        body: { locationReference: 'L', stock: '12' },
        field: 'stock',
      },
      {
        what: 'a missing locationReference',
        operationId: 'updateSkuStock',
        method: 'PUT',
        path: stockPath,
        body: { stock: 1 },
        field: 'locationReference',
      },
      {
        what: 'an unknown stock field',
        operationId: 'updateSkuStock',
        method: 'PUT',
        path: stockPath,
        body: { locationReference: 'L', stock: 1, quantity: 1 },
        field: 'quantity',
      },
      {
        what: 'a wrong type (isMandatory: "yes")',
        operationId: 'updateSkuInspection',
        method: 'PUT',
        path: () => `/v1/items/skus/${m.sku.reference}/inspections/${m.sku.inspectionIds[0]}`,
        body: { name: 'x', isMandatory: 'yes' },
        field: 'isMandatory',
      },
      {
        what: 'a wrong type (eventVersion: "1")',
        operationId: 'createWebhookSubscription',
        method: 'POST',
        path: () => '/v1/notifications/webhook/subscriptions',
        body: { endpoint: 'https://x.example', eventName: 'Items.Sku.Created', eventVersion: '1' },
        field: 'eventVersion',
      },
      {
        what: 'a missing endpoint',
        operationId: 'createWebhookSubscription',
        method: 'POST',
        path: () => '/v1/notifications/webhook/subscriptions',
        body: { eventName: 'Items.Sku.Created', eventVersion: 1 },
        field: 'endpoint',
      },
      {
        what: 'an invalid date',
        operationId: 'updatePurchaseOrderLine',
        method: 'PUT',
        path: () =>
          `/v1/planning/purchaseOrders/${m.purchaseOrderLine.purchaseOrderId}/lines/${m.purchaseOrderLine.lineId}`,
        body: { expectedDate: 'next tuesday' },
        field: 'expectedDate',
      },
      {
        what: 'a wrong list parameter type in the search body',
        operationId: 'searchFamilies',
        method: 'POST',
        path: () => '/v1/items/families/search',
        body: { sortBy: 5 },
        field: 'sortBy',
      },
    ];

    it.each(cases)('answers $what on $operationId', async ({ operationId, method, path, raw, body, field }) => {
      const reply = await h.call(method, path(), { op: operationId, ...(raw !== undefined ? { raw } : { body }) });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', `${method} ${path()}`);
      expect(reply.body.parameters).toEqual({ field });
      if (field) expect(reply.body.detail).toContain(field);
    });
  });

  it.each([
    { operationId: 'createApiKey', method: 'POST', path: '/v1/access/apiKeys' },
    { operationId: 'updateSkuStock', method: 'PUT', path: '/v1/items/skus/X/stock' },
    { operationId: 'searchFamilies', method: 'POST', path: '/v1/items/families/search' },
  ])(
    'answers an empty body on $operationId with 400 COMMON.VALIDATION.ERROR',
    async ({ operationId, method, path }) => {
      const empty = await h.call(method, path, { op: operationId, raw: '' });
      expectProblem(empty, 400, 'COMMON.VALIDATION.ERROR', `${method} ${path}`);
      const none = await h.call(method, path, { op: operationId });
      expectProblem(none, 400, 'COMMON.VALIDATION.ERROR', `${method} ${path}`);
      const blank = await h.call(method, path, { op: operationId, raw: '   ' });
      expectProblem(blank, 400, 'COMMON.VALIDATION.ERROR', `${method} ${path}`);
    },
  );

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers the content type %s with a 415 problem without code',
    async (type) => {
      const reply = await h.call('POST', '/v1/access/apiKeys', {
        op: 'createApiKey',
        raw: 'name=ci',
        headers: { 'content-type': type },
      });
      expectProblem(reply, 415, null, 'POST /v1/access/apiKeys');
      expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.16');
    },
  );

  it('accepts application/json with a charset and vendor +json types', async () => {
    const charset = await h.call('POST', '/v1/access/apiKeys', {
      op: 'createApiKey',
      raw: '{"name":"a"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
    const vendor = await h.call('POST', '/v1/access/apiKeys', {
      op: 'createApiKey',
      raw: '{"name":"b"}',
      headers: { 'content-type': 'application/vnd.ops+json' },
    });
    expect(vendor.status).toBe(201);
  });

  it('answers an unknown route with a 404 problem without code', async () => {
    const reply = await h.call('GET', '/v1/items/nothing-here');
    expectProblem(reply, 404, null, 'GET /v1/items/nothing-here');
    const outside = await h.call('POST', '/v2/items/skus', { token: null });
    expectProblem(outside, 404, null, 'POST /v2/items/skus');
  });

  it.each([
    { method: 'PATCH', path: '/v1/items/skus', operationId: 'listSkus', allowed: ['GET'] },
    { method: 'DELETE', path: '/v1/items/skus', operationId: 'listSkus', allowed: ['GET'] },
    { method: 'GET', path: '/v1/access/apiKeys', operationId: 'createApiKey', allowed: ['POST'] },
    {
      method: 'PUT',
      path: '/v1/notifications/webhook/subscriptions',
      operationId: 'listWebhookSubscriptions',
      allowed: ['GET', 'POST'],
    },
    { method: 'GET', path: '/v1/items/families/fam_1', operationId: 'deleteFamily', allowed: ['DELETE'] },
  ])('answers $method $path with 405, an Allow header and no code', async ({ method, path, operationId, allowed }) => {
    const reply = await h.call(method, path, { op: operationId });
    expectProblem(reply, 405, null, `${method} ${path}`);
    const allow = (reply.headers.allow ?? '').split(/\s*,\s*/);
    expect(allow).toEqual(expect.arrayContaining([...allowed, 'OPTIONS']));
    expect(allow).not.toContain(method);
  });

  describe('rejected requests leave the state unchanged', () => {
    it('keeps the subscriptions after refused creations', async () => {
      const before = await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
      const attempts = [
        { raw: '{"endpoint":' },
        { body: { endpoint: 'https://x.example', eventName: 'Items.Sku.Created' } },
        { body: { endpoint: 'ftp://x', eventName: 'Items.Sku.Created', eventVersion: 1 } },
        { body: { endpoint: 'https://x.example', eventName: 'Items.Sku.Nope', eventVersion: 1 } },
        { body: { endpoint: 'https://x.example', eventName: 'Items.Sku.Created', eventVersion: 1 }, token: h.limited },
        { body: { endpoint: 'https://x.example', eventName: 'Items.Sku.Created', eventVersion: 1 }, token: null },
      ];
      for (const attempt of attempts) {
        const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
          ...attempt,
          op: 'createWebhookSubscription',
        });
        expect(reply.status).toBeGreaterThanOrEqual(400);
      }
      const after = await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
      expect(after.body).toEqual(before.body);
    });

    it('keeps the SKU after refused stock updates', async () => {
      const query = `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`;
      const before = await h.call('GET', query, { op: 'listSkus' });
      const bodies = [
        { stock: 5 },
        { locationReference: m.sku.locationReference, stock: -5 },
        { locationReference: m.sku.locationReference, stock: 5, extra: true },
        { locationReference: 'NOWHERE', stock: 5 },
        { locationReference: m.sku.locationReference, stock: 5, stockUnitOfMeasureId: m.unknownUnitOfMeasureId },
        { locationReference: m.sku.locationReference, stock: 5.123456789 },
      ];
      for (const body of bodies) {
        const reply = await h.call('PUT', stockPath(), { body, op: 'updateSkuStock' });
        expect(reply.status).toBeGreaterThanOrEqual(400);
      }
      const limited = await h.call('PUT', stockPath(), {
        token: h.limited,
        body: { locationReference: m.sku.locationReference, stock: 5 },
        op: 'updateSkuStock',
      });
      expect(limited.status).toBe(403);
      const after = await h.call('GET', query, { op: 'listSkus' });
      expect(after.body).toEqual(before.body);
    });
  });

  describe('an oversized body (bodyLimit 2048)', () => {
    it('gets a 413 problem without code', async () => {
      const reply = await h.call('POST', '/v1/access/apiKeys', {
        body: { name: 'x'.repeat(4096) },
        op: 'createApiKey',
      });
      expectProblem(reply, 413, null, 'POST /v1/access/apiKeys');
      expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.14');
    });

    it('accepts a body under the limit', async () => {
      const reply = await h.call('POST', '/v1/access/apiKeys', { body: { name: 'x'.repeat(150) }, op: 'createApiKey' });
      expect(reply.status).toBe(201);
    });

    it('creates nothing', async () => {
      const before = await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
      const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        body: { endpoint: `https://x.example/${'p'.repeat(3000)}`, eventName: 'Items.Sku.Created', eventVersion: 1 },
        op: 'createWebhookSubscription',
      });
      expectProblem(reply, 413, null);
      const after = await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
      expect(after.body).toEqual(before.body);
    });
  });

  describe('Prefer: code=<status>', () => {
    const stockBody = () => ({ locationReference: m.sku.locationReference, stock: 1 });

    it.each([
      { status: 404, code: 'COMMON.ENTITY.NOT_FOUND' },
      { status: 422, code: 'COMMON.QUANTITY.UNIT_NOT_CONFIGURED' },
      { status: 429, code: 'COMMON.RATE_LIMIT.EXCEEDED' },
      { status: 400, code: 'COMMON.VALIDATION.ERROR' },
      { status: 403, code: 'COMMON.AUTH.MISSING_PERMISSIONS' },
    ])('forces the documented $status $code on updateSkuStock', async ({ status, code }) => {
      const reply = await h.call('PUT', stockPath(), {
        body: stockBody(),
        headers: { prefer: `code=${status}` },
        op: 'updateSkuStock',
      });
      expectProblem(reply, status, code, `PUT ${stockPath()}`);
      expect(reply.headers['preference-applied']).toBe(`code=${status}`);
      if (status === 429) {
        expect(reply.body.parameters).toEqual({});
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0);
      }
      if (status === 403) expect(reply.body.parameters).toEqual({ permission: 'Warehouse.Counts.Write' });
    });

    it('forces the plain 401 without code', async () => {
      const reply = await h.call('GET', '/v1/items/skus', { headers: { prefer: 'code=401' }, op: 'listSkus' });
      expectProblem(reply, 401, null, 'GET /v1/items/skus');
      expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2');
      expect(reply.headers['preference-applied']).toBe('code=401');
    });

    it('forces the documented 422 of a cancelled purchase order line', async () => {
      const path = `/v1/planning/purchaseOrders/${m.purchaseOrderLine.purchaseOrderId}/lines/${m.purchaseOrderLine.lineId}`;
      const reply = await h.call('PUT', path, {
        body: { comment: 'x' },
        headers: { prefer: 'code=422' },
        op: 'updatePurchaseOrderLine',
      });
      expectProblem(reply, 422, operation('updatePurchaseOrderLine').errors.find((e) => e.status === 422)!.codes[0]!);
      expect(reply.body.code).toBe('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE');
    });

    it('forces 404 on the error catalog for a code that exists', async () => {
      const reply = await h.call('GET', '/v1/errors/COMMON.ENTITY.NOT_FOUND', {
        headers: { prefer: 'code=404' },
        op: 'getError',
      });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
    });

    it('does not change the state when it forces an error', async () => {
      const query = `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`;
      const before = await h.call('GET', query, { op: 'listSkus' });
      await h.call('PUT', stockPath(), {
        body: { ...stockBody(), stock: 999_999 },
        headers: { prefer: 'code=422' },
        op: 'updateSkuStock',
      });
      expect((await h.call('GET', query, { op: 'listSkus' })).body).toEqual(before.body);
    });

    // A status the operation does not declare is refused with a 400: mock/test/prefer.test.ts.
    it.each([
      {
        what: 'the success status of the operation',
        path: '/v1/items/skus?pageSize=1',
        prefer: 'code=200',
        operationId: 'listSkus',
      },
      {
        what: 'another preference',
        path: '/v1/admin/tenants/self',
        prefer: 'return=minimal',
        operationId: 'getTenantSelf',
      },
    ])('ignores $what', async ({ path, prefer, operationId }) => {
      const reply = await h.call('GET', path, { headers: { prefer }, op: operationId });
      expect(reply.status).toBe(200);
      expect(reply.headers['preference-applied']).toBeUndefined();
    });

    it('still answers 401 to an anonymous request that prefers another status', async () => {
      const reply = await h.call('GET', '/v1/items/skus', {
        token: null,
        headers: { prefer: 'code=429' },
        op: 'listSkus',
      });
      expectProblem(reply, 401, null);
      expect(reply.headers['preference-applied']).toBeUndefined();
    });
  });
});

describe('added latency', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ latency: { min: 30, max: 30 } });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('still answers every operation kind', async () => {
    expect((await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' })).status).toBe(200);
    expect((await h.call('GET', '/v1/admin/tenants/self', { op: 'getTenantSelf' })).status).toBe(200);
    expectProblem(await h.call('GET', '/v1/items/skus', { token: null, op: 'listSkus' }), 401, null);
  });
});
