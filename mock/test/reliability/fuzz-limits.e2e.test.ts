/**
 * Oversized and malformed input to every operation: bodies over the limit, deep nesting, numbers JSON cannot carry,
 * oversized headers and malformed HTTP. Never a 5xx, every error a problem body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { OPERATIONS } from '../../../spec/operations/index.js';
import { adminClaims } from '../../auth/presets.js';
import { operationBodyLimit } from '../../http/body-limits.js';
import { sharedContract } from '../../../spec/shared-contract.js';
import type { Harness } from '../harness.js';
import { method } from './arbitraries.js';
import { BODY_LIMIT, startFuzzEnv, stopFuzzEnv, type FuzzEnv } from './fuzz-env.js';
import { bearer, checkReply, probe, validRequest, type Wire } from './support.js';

describe('fuzzing every operation', () => {
  let h: Harness;
  let wire: Wire;
  let m: FixtureManifest;
  const ids: { subscriptionId?: string; notificationId?: string } = {};
  let env: FuzzEnv | undefined;

  beforeAll(async () => {
    env = await startFuzzEnv(ids);
    ({ h, wire, m } = env);
  });

  afterAll(() => stopFuzzEnv(env ?? {}));

  it('answers bodies over the limit with 413 without code, authenticated or not', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT + 10) });
    for (const op of OPERATIONS.filter((o) => o.requestBody)) {
      const { path } = validRequest(op, m, ids);
      for (const headers of [bearer(h.admin), { 'content-type': 'application/json' }]) {
        const reply = await probe(wire, { method: method(op), path, headers, body: huge }, 'over the limit');
        expect(reply.status).toBe(413);
        expect(reply.body).not.toHaveProperty('code');
      }
    }
  });

  it('answers 10,000 levels of nesting everywhere JSON or a filter is read', async () => {
    const deep = [
      '['.repeat(10_000),
      `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
      `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
    ];
    // A body longer than its operation could need is refused before it is read (mock/http/body-limits.ts); every
    // depth is still parsed by the operations that admit its length (searchFamilies admits all three).
    const parsed = new Set<string>();
    for (const op of OPERATIONS.filter((o) => o.requestBody)) {
      const limit = operationBodyLimit(op, sharedContract().document, BODY_LIMIT);
      for (const body of deep) {
        const reply = await probe(wire, {
          method: method(op),
          path: validRequest(op, m, ids).path,
          headers: bearer(h.admin),
          body,
        });
        expect(reply.status).toBe(body.length > limit ? 413 : 400);
        if (reply.status === 400) parsed.add(body);
      }
    }
    expect(parsed.size).toBe(deep.length);
    const events = await probe(wire, {
      method: 'POST',
      path: '/__mock/events',
      headers: bearer(h.admin),
      body: `{"eventName":"Warehouse.Stock.Updated","data":{"x":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    });
    expect(events.status).toBe(400);
    for (const op of OPERATIONS.filter((o) => o.list?.parametersIn === 'query')) {
      const reply = await probe(wire, {
        method: 'GET',
        path: `${validRequest(op, m, ids).path}?filterBy=${'('.repeat(10_000)}`,
        headers: bearer(h.admin),
      });
      expect(reply.status).toBe(400);
    }
    // Notifications stay listable after the attempts (a stored payload that cannot be serialised would poison every list).
    await probe(wire, { method: 'GET', path: '/v1/notifications/webhook?pageSize=1000', headers: bearer(h.admin) });
  });

  it('never stores a number JSON cannot carry (1e999, overflowing stock totals)', async () => {
    const org = `${h.org}-numbers`;
    const token = await h.token(adminClaims(org));
    const tm = (await h.call('GET', '/__mock/fixtures', { token })).body as FixtureManifest;
    const stockPath = `/v1/items/skus/${tm.sku.reference}/stock`;
    const put = (body: string) => probe(wire, { method: 'PUT', path: stockPath, headers: bearer(token), body });
    const other = (h.mock.control.tenant(org).inspect()?.locations() ?? []).find(
      (l) => l !== tm.sku.locationReference,
    )!;
    expect(
      (await put(`{"locationReference":"${tm.sku.locationReference}","lotId":"${tm.sku.lotId}","stock":1e999}`)).status,
    ).toBe(400);
    expect(
      (await put(JSON.stringify({ locationReference: tm.sku.locationReference, lotId: tm.sku.lotId, stock: 1e308 })))
        .status,
    ).toBe(204);
    const overflow = await put(JSON.stringify({ locationReference: other, stock: 1e308 }));
    expect(overflow.status).toBe(400);
    expect(overflow.body.parameters).toEqual({ field: 'stock' });
    const converted = await put(
      JSON.stringify({
        locationReference: other,
        stock: 1e307,
        stockUnitOfMeasureId: tm.sku.alternativeUnitOfMeasureId,
      }),
    );
    expect([204, 400]).toContain(converted.status);
    const line = `/v1/planning/purchaseOrders/${tm.purchaseOrderLine.purchaseOrderId}/lines/${tm.purchaseOrderLine.lineId}`;
    for (const body of ['{"quantity":1e999}', '{"unitPrice":-1e999}', '{"quantity":1,"unitPrice":1e400}']) {
      expect((await probe(wire, { method: 'PUT', path: line, headers: bearer(token), body })).status).toBe(400);
    }
    const listed = await probe(wire, {
      method: 'GET',
      path: `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${tm.sku.reference}`)}`,
      headers: bearer(token),
    });
    expect(Number.isFinite(listed.body.results[0].totalStock)).toBe(true);
  });

  it('answers a token over the header limit with 431 and malformed HTTP with a 400 problem', async () => {
    const big = await wire.send({
      method: 'GET',
      path: '/v1/items/skus',
      headers: { authorization: `Bearer ${'a'.repeat(20_000)}.b.c` },
    });
    checkReply('GET', '/v1/items/skus', big);
    expect(big.status).toBe(431);
    const auth = `Authorization: Bearer ${h.admin}\r\n`;
    const cases: { request: string | Buffer; status: number }[] = [
      { request: `GET /v1/items/skus\u0000 HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`, status: 400 },
      {
        request: `GET /v1/items/skus HTTP/1.1\r\nHost: x\r\nX-Api-Key: a\u0000b\r\nConnection: close\r\n\r\n`,
        status: 400,
      },
      { request: `FOO /v1/items/skus HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, status: 400 },
      { request: `GET /v1/items/skus HTTP/1.1\r\n${auth}Connection: close\r\n\r\n`, status: 400 },
      {
        request: `PUT /v1/items/skus/X/stock HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n`,
        status: 400,
      },
      {
        request: `PUT /v1/items/skus/X/stock HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
        status: 400,
      },
      {
        request: `GET http://elsewhere.invalid/v1/notifications/webhook/abc HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`,
        status: 404,
      },
      { request: `GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, status: 404 },
      {
        request: Buffer.concat([
          Buffer.from('GET /v1/notifications/webhook/'),
          Buffer.from([0xc3, 0xa9, 0xff]),
          Buffer.from(` HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`),
        ]),
        status: 400,
      },
      {
        request: Buffer.concat([
          Buffer.from(`GET /v1/items/skus HTTP/1.1\r\nHost: x\r\nX-Api-Key: `),
          Buffer.from([0xc3, 0xa9, 0xff]),
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ]),
        status: 401,
      },
    ];
    for (const { request, status } of cases) {
      const reply = await wire.raw(request);
      const firstLine = String(request).split('\r\n')[0] ?? '';
      const [verb = 'GET', target = '/'] = firstLine.split(' ');
      checkReply(verb, target.startsWith('/') ? target : '/', reply, JSON.stringify(firstLine));
      expect(reply.status, firstLine).toBe(status);
      expect(reply.body.instance, firstLine).toMatch(/^[A-Z]+ \//);
    }
  });
});
