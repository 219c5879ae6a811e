import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operation } from '../../spec/operations/index.js';
import { preferredCode } from '../http/prefer.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

describe('reading Prefer: code= for an operation', () => {
  const stock = operation('updateSkuStock');

  it.each([
    { prefer: undefined, expected: { kind: 'none' } },
    { prefer: 'return=minimal', expected: { kind: 'none' } },
    { prefer: 'code=204', expected: { kind: 'none' } },
    { prefer: 'code=422', expected: { kind: 'force', status: 422 } },
    { prefer: 'CODE="404"', expected: { kind: 'force', status: 404 } },
    { prefer: 'return=minimal, code=429', expected: { kind: 'force', status: 429 } },
    { prefer: ['wait=5', 'code=403'], expected: { kind: 'force', status: 403 } },
  ])('reads $prefer as $expected.kind', ({ prefer, expected }) => {
    expect(preferredCode(stock, prefer)).toEqual(expected);
  });

  it.each(['code=418', 'code=500', 'code=4290', 'code=abc', 'code='])(
    'refuses %s, naming every status the operation declares',
    (prefer) => {
      const read = preferredCode(stock, prefer);
      expect(read.kind).toBe('refuse');
      if (read.kind === 'refuse')
        expect(read.detail).toContain(
          'PUT /v1/items/skus/{skuReference}/stock declares 204, 400, 401, 403, 404, 422 and 429',
        );
    },
  );

  it('counts the success status among the declared ones', () => {
    const read = preferredCode(operation('getTenantSelf'), 'code=418');
    expect(read.kind === 'refuse' && read.detail).toContain('GET /v1/admin/tenants/self declares 200, 401 and 429;');
  });
});

describe('Prefer: code= with a status the operation does not declare', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers 400 without a catalog code, naming the statuses the operation declares', async () => {
    const reply = await h.call('PUT', '/v1/items/skus/ANY/stock', {
      body: { locationReference: 'L', stock: 1 },
      headers: { prefer: 'code=418' },
    });
    expectProblem(reply, 400, null, 'PUT /v1/items/skus/ANY/stock');
    expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.1');
    expect(reply.body.detail).toContain('code=418');
    expect(reply.body.detail).toContain('declares 204, 400, 401, 403, 404, 422 and 429');
    expect(reply.headers['preference-applied']).toBeUndefined();
  });

  it.each([
    {
      what: '404 on the SKU list',
      method: 'GET',
      path: '/v1/items/skus?pageSize=1',
      prefer: 'code=404',
      declared: '200, 400, 401, 403 and 429',
    },
    {
      what: '422 on the SKU list',
      method: 'GET',
      path: '/v1/items/skus?pageSize=1',
      prefer: 'code=422',
      declared: '200, 400, 401, 403 and 429',
    },
    {
      what: '500 on the tenant',
      method: 'GET',
      path: '/v1/admin/tenants/self',
      prefer: 'code=500',
      declared: '200, 401 and 429',
    },
    {
      what: 'a value that is no status',
      method: 'GET',
      path: '/v1/admin/tenants/self',
      prefer: 'code=teapot',
      declared: '200, 401 and 429',
    },
  ])('refuses $what the same way', async ({ method, path, prefer, declared }) => {
    const reply = await h.call(method, path, { headers: { prefer } });
    expectProblem(reply, 400, null);
    expect(reply.body.detail).toContain(`declares ${declared}`);
  });

  it('changes nothing: the refused request is not run', async () => {
    const before = await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' });
    const body = { endpoint: 'http://127.0.0.1:1/hook', eventName: 'Items.Sku.Created', eventVersion: 1 };
    const reply = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      body,
      // 418: a status no operation declares.
      headers: { prefer: 'code=418' },
    });
    expectProblem(reply, 400, null);
    expect(
      (await h.call('GET', '/v1/notifications/webhook/subscriptions', { op: 'listWebhookSubscriptions' })).body,
    ).toEqual(before.body);
  });

  it('still answers the plain 401 to an anonymous request, before reading the preference', async () => {
    const reply = await h.call('GET', '/v1/items/skus', { token: null, headers: { prefer: 'code=418' } });
    expectProblem(reply, 401, null);
  });

  it('still forces a declared status', async () => {
    const reply = await h.call('GET', '/v1/items/skus', { headers: { prefer: 'code=403' }, op: 'listSkus' });
    expectProblem(reply, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
  });
});
