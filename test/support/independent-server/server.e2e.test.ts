import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from './error-codes.js';
import { INDEPENDENT_FAULTS, type IndependentServer, type IndependentTenant, startIndependentServer } from './index.js';

interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function call(
  server: IndependentServer,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  extra = {},
) {
  const headers: Record<string, string> = { ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text } as Reply;
}

/** A loopback receiver that records each delivery's raw bytes and headers. */
async function receiver(): Promise<{
  url: string;
  server: Server;
  next: () => Promise<{ raw: Buffer; headers: IncomingHttpHeaders }>;
}> {
  const waiting: Array<(d: { raw: Buffer; headers: IncomingHttpHeaders }) => void> = [];
  const queued: Array<{ raw: Buffer; headers: IncomingHttpHeaders }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      const delivery = { raw: Buffer.concat(chunks), headers: req.headers };
      const resolve = waiting.shift();
      if (resolve) resolve(delivery);
      else queued.push(delivery);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const next = () => {
    const ready = queued.shift();
    return ready
      ? Promise.resolve(ready)
      : new Promise<{ raw: Buffer; headers: IncomingHttpHeaders }>((r) => waiting.push(r));
  };
  return { url: `http://127.0.0.1:${port}/hook`, server, next };
}

const LISTS: Array<[string, string]> = [
  ['GET', '/v1/items/skus'],
  ['POST', '/v1/items/families/search'],
  ['GET', '/v1/maintenance/assets'],
  ['GET', '/v1/notifications/webhook/subscriptions'],
  ['GET', '/v1/notifications/webhook'],
  ['GET', '/v1/notifications/events'],
  ['GET', '/v1/notifications/events/versions'],
];

describe('the independent server', () => {
  let server: IndependentServer;
  let acme: IndependentTenant;
  let globex: IndependentTenant;

  beforeAll(async () => {
    server = await startIndependentServer({ rateLimit: null });
    acme = await server.tenant('acme');
    globex = await server.tenant('globex');
  });
  afterAll(() => server.close());

  it('transcribes the 478 catalog codes and serves each one', async () => {
    expect(new Set(ERROR_CODES).size).toBe(478);
    const entry = await call(server, 'GET', '/v1/errors/COMMON.ENTITY.NOT_FOUND', acme.token);
    expect(entry.status).toBe(200);
    expect(entry.body.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'entity' })]));
    const unknown = await call(server, 'GET', '/v1/errors/NOPE.NOT_A_CODE', acme.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('COMMON.ENTITY.NOT_FOUND');
    expect(unknown.body.type).toBe(`${server.url}/errors/COMMON.ENTITY.NOT_FOUND`);
    expect(unknown.body.instance).toBe('GET /v1/errors/NOPE.NOT_A_CODE');
  });

  it('answers the plain 401 without a code for missing, invalid, expired credentials and a lone key', async () => {
    const expired = await acme.tokenWith(['App.Admin'], -60);
    const replies = [
      await call(server, 'GET', '/v1/items/skus'),
      await call(server, 'GET', '/v1/items/skus', 'not.a.jwt'),
      await call(server, 'GET', '/v1/items/skus', expired),
      await call(server, 'GET', '/v1/items/skus', undefined, undefined, { 'X-Api-Key': 'opk_x' }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      expect(reply.body).not.toHaveProperty('code');
      expect(reply.body).toMatchObject({ status: 401, instance: 'GET /v1/items/skus' });
      expect(reply.body.type).toBe('https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2');
    }
  });

  it('names the missing permission in a 403', async () => {
    const reply = await call(server, 'PUT', `/v1/items/skus/${acme.data.sku.reference}/stock`, acme.limitedToken, {
      stock: 1,
    });
    expect(reply.status).toBe(403);
    expect(reply.body.code).toBe('COMMON.AUTH.MISSING_PERMISSIONS');
    expect(reply.body.detail).toContain('Warehouse.Counts.Write');
    expect(reply.body.parameters).toEqual({ permission: 'Warehouse.Counts.Write' });
  });

  it('answers the page envelope on every list', async () => {
    for (const [method, path] of LISTS) {
      const reply = await call(server, method, path, acme.token, method === 'POST' ? {} : undefined);
      expect(reply.status, path).toBe(200);
      expect(Object.keys(reply.body).sort()).toEqual(['pageNumber', 'pageSize', 'results', 'totalCount', 'totalPages']);
      expect(reply.body).toMatchObject({ pageNumber: 1, pageSize: 25 });
      expect(reply.body.totalPages).toBe(Math.ceil(reply.body.totalCount / 25));
    }
    const search = await call(server, 'POST', '/v1/items/families/search', acme.token, { pageSize: 5, pageNumber: 2 });
    expect(search.body).toMatchObject({
      pageNumber: 2,
      pageSize: 5,
      totalPages: Math.ceil(search.body.totalCount / 5),
    });
  });

  it('filters case-sensitively, sorts descending with nulls first and pages', async () => {
    const all = (await call(server, 'GET', '/v1/items/skus?pageSize=1000', acme.token)).body.results as any[];
    const expected = all.filter((s) => s.name.includes('Steel') || s.weightKg === null);
    const filter = encodeURIComponent('(name[Contains]Steel || weightKg[IsNull]) && createdat[IsOnOrAfter]2000-01-01');
    const first = await call(
      server,
      'GET',
      `/v1/items/skus?filterBy=${filter}&sortBy=-weightKg&pageSize=3`,
      acme.token,
    );
    expect(first.status).toBe(200);
    expect(first.body.totalCount).toBe(expected.length);
    expect(first.body.totalPages).toBe(Math.ceil(expected.length / 3));
    expect(first.body.results[0].weightKg).toBeNull();
    const walked: any[] = [];
    for (let page = 1; page <= first.body.totalPages; page += 1) {
      const reply = await call(
        server,
        'GET',
        `/v1/items/skus?filterBy=${filter}&sortBy=-weightKg&pageSize=3&pageNumber=${page}`,
        acme.token,
      );
      walked.push(...reply.body.results);
    }
    const weights = walked.filter((s) => s.weightKg !== null).map((s) => s.weightKg);
    expect(weights).toEqual([...weights].sort((a, b) => b - a));
    expect(walked.map((s) => s.id).sort()).toEqual(expected.map((s) => s.id).sort());

    const lower = await call(
      server,
      'GET',
      `/v1/items/skus?filterBy=${encodeURIComponent('name[Contains]steel')}`,
      acme.token,
    );
    expect(lower.body.results.every((s: any) => s.name.includes('steel'))).toBe(true);
    const unknown = await call(server, 'GET', '/v1/items/skus?filterBy=colour[Equals]x', acme.token);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('COMMON.QUERY.FILTER_PARSING_FAILED');
    const ignored = await call(server, 'GET', '/v1/items/skus?sortBy=colour', acme.token);
    expect(ignored.status).toBe(200);
  });

  it('refuses bad input with problems, never a 500', async () => {
    const reference = acme.data.sku.reference;
    const cases: Array<[string, string, unknown, number]> = [
      ['GET', '/v1/items/skus?pageSize=1001', undefined, 422],
      ['GET', '/v1/items/skus?pageNumber=0', undefined, 422],
      ['GET', `/v1/items/skus?filterBy=${encodeURIComponent('((name[Equals]x')}`, undefined, 400],
      ['GET', '/v1/items/skus?filterBy=weightKg[Contains]1', undefined, 400],
      ['PUT', `/v1/items/skus/${reference}/stock`, '{not json', 422],
      ['PUT', `/v1/items/skus/${reference}/stock`, { stock: 'ten', locationReference: 'x' }, 422],
      ['GET', '/v1/nowhere', undefined, 404],
      ['DELETE', '/v1/items/skus', undefined, 405],
      [
        'POST',
        '/v1/notifications/webhook/subscriptions',
        { endpoint: 'ftp://x', eventName: 'Items.Sku.Created', eventVersion: 1 },
        422,
      ],
      [
        'POST',
        '/v1/notifications/webhook/subscriptions',
        { endpoint: 'http://x', eventName: 'No.Such.Event', eventVersion: 1 },
        422,
      ],
    ];
    for (const [method, path, body, status] of cases) {
      const reply = await call(server, method, path, acme.token, body);
      expect(reply.status, `${method} ${path}`).toBe(status);
      expect(reply.body.status).toBe(status);
    }
  });

  it('keeps tenants apart and applies the write rules', async () => {
    const { sku, purchaseOrderLine, cancelledPurchaseOrderLine, receivedPurchaseOrderLine } = acme.data;
    const inspection = `/v1/items/skus/${sku.reference}/inspections/${sku.inspectionIds[0]}`;
    expect((await call(server, 'PUT', inspection, globex.token, { name: 'x', isMandatory: true })).status).toBe(404);
    const updated = await call(server, 'PUT', inspection, acme.token, { name: 'Surface check', isMandatory: true });
    expect(updated.body).toEqual({
      id: sku.inspectionIds[0],
      name: 'Surface check',
      type: 'Simple',
      isMandatory: true,
    });
    const unit = await call(server, 'PUT', `/v1/items/skus/${sku.reference}/stock`, acme.token, {
      stock: 3,
      locationReference: sku.locationReference,
      lotId: sku.lotId,
      stockUnitOfMeasureId: acme.data.unknownUnitOfMeasureId,
    });
    expect(unit.body.code).toBe('COMMON.QUANTITY.UNIT_NOT_CONFIGURED');
    const line = (ref: { purchaseOrderId: string; lineId: string }) =>
      call(server, 'PUT', `/v1/planning/purchaseOrders/${ref.purchaseOrderId}/lines/${ref.lineId}`, acme.token, {
        quantity: 7,
      });
    expect((await line(purchaseOrderLine)).status).toBe(200);
    const cancelled = await line(cancelledPurchaseOrderLine);
    expect([cancelled.status, cancelled.body.code]).toEqual([
      422,
      'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
    ]);
    expect((await line(receivedPurchaseOrderLine)).status).toBe(409);
    const family = `/v1/items/families/${acme.data.deletableFamilyId}`;
    expect((await call(server, 'DELETE', family, acme.token)).status).toBe(204);
    expect((await call(server, 'DELETE', family, acme.token)).body.code).toBe('ITEMS.FAMILY.ALREADY_DELETED');
  });

  it('accepts an API key only with a token of its own tenant', async () => {
    const created = await call(server, 'POST', '/v1/access/apiKeys', acme.token, { name: 'ci' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'ci', orgCode: 'acme', isActive: true });
    const key = { 'X-Api-Key': created.body.key };
    expect((await call(server, 'GET', '/v1/items/skus', acme.token, undefined, key)).status).toBe(200);
    expect((await call(server, 'GET', '/v1/items/skus', globex.token, undefined, key)).status).toBe(401);
  });

  it('delivers a signed notification for a stock update and answers 204 without a body', async () => {
    const hook = await receiver();
    try {
      const subscription = await call(server, 'POST', '/v1/notifications/webhook/subscriptions', acme.token, {
        endpoint: hook.url,
        eventName: 'Warehouse.StockLevel.Changed',
        eventVersion: 2,
      });
      expect(subscription.status).toBe(200);
      const { sku } = acme.data;
      const update = await call(server, 'PUT', `/v1/items/skus/${sku.reference}/stock`, acme.token, {
        stock: 12,
        locationReference: sku.locationReference,
        lotId: sku.lotId,
        comment: 'count',
        stockUnitOfMeasureId: sku.alternativeUnitOfMeasureId,
      });
      expect([update.status, update.text]).toEqual([204, '']);
      const delivery = await hook.next();
      const expected = createHmac('sha256', acme.webhookSecret).update(delivery.raw).digest();
      const signature = String(delivery.headers['x-hmac-signature']);
      expect(signature).toMatch(/^[0-9a-f]{64}$/);
      expect(timingSafeEqual(Buffer.from(signature, 'hex'), expected)).toBe(true);
      const payload = JSON.parse(delivery.raw.toString('utf8'));
      expect(delivery.headers['x-webhook-id']).toBe(payload.eventId);
      expect(payload).toMatchObject({ event: 'Warehouse.StockLevel.Changed', version: 2, tenant: 'acme' });
      const list = await call(server, 'GET', '/v1/notifications/webhook', acme.token);
      expect(list.body.totalCount).toBe(1);
      const attempts = await call(
        server,
        'GET',
        `/v1/notifications/webhook/${list.body.results[0].id}/attempts`,
        acme.token,
      );
      expect(Object.keys(attempts.body).sort()).toEqual([
        'pageNumber',
        'pageSize',
        'results',
        'totalCount',
        'totalPages',
      ]);
      const removed = await call(
        server,
        'DELETE',
        `/v1/notifications/webhook/subscriptions/${subscription.body.id}`,
        acme.token,
      );
      expect(removed.body).toEqual({ deleted: true, id: subscription.body.id });
    } finally {
      await new Promise((resolve) => hook.server.close(resolve));
    }
  });
});

describe('the fixed window and planted faults', () => {
  it('answers 429 with the reset delay once the window is used up', async () => {
    const server = await startIndependentServer({ rateLimit: { limit: 3, windowMs: 60_000 } });
    try {
      const { token } = await server.tenant('initech');
      for (let i = 0; i < 3; i += 1)
        expect((await call(server, 'GET', '/v1/notifications/events', token)).status).toBe(200);
      const limited = await call(server, 'GET', '/v1/notifications/events', token);
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'COMMON.RATE_LIMIT.EXCEEDED', parameters: {} });
      const wait = Number(limited.headers.get('x-ratelimit-reset-after-ms'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60_000);
      const other = await server.tenant('hooli');
      expect((await call(server, 'GET', '/v1/notifications/events', other.token)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('breaks exactly the rule a switch names', async () => {
    await expect(startIndependentServer({ faults: ['no-such-fault'] })).rejects.toThrow();
    expect(Object.keys(INDEPENDENT_FAULTS)).toHaveLength(19);
    const server = await startIndependentServer({ faults: ['auth-401-with-code', 'total-pages-off-by-one'] });
    try {
      const { token } = await server.tenant('acme');
      expect((await call(server, 'GET', '/v1/items/skus')).body.code).toBe('COMMON.AUTH.UNAUTHORIZED');
      const page = (await call(server, 'GET', '/v1/items/skus?pageSize=10', token)).body;
      expect(page.totalPages).toBe(Math.ceil(page.totalCount / 10) + 1);
    } finally {
      await server.close();
    }
  });
});
