/**
 * Random and adversarial requests to every operation of the contract. Invariants: never a 5xx, never a hang (every
 * request has a timeout), every error a problem body, every answer of an operation valid against the contract, and
 * requests that are refused change nothing.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { OPERATIONS, type OperationDef } from '../../../spec/operations/index.js';
import { adminClaims, limitedClaims } from '../../auth/presets.js';
import { startHarness, type Harness } from '../harness.js';
import { forgedTokens } from './forged-tokens.js';
import {
  method,
  schemaKeys,
  ADVERSARIAL_SEGMENTS,
  segmentArb,
  ADVERSARIAL_BODIES,
  CONTENT_TYPES,
  wrongValue,
  textValue,
  endpointValue,
  EVENT_NAMES,
  pageArb,
  filterArb,
  sortArb,
} from './arbitraries.js';
import {
  bearer,
  checkReply,
  encodeSegment,
  operationOf,
  pathOf,
  probe,
  settleWebhooks,
  startReceiver,
  tenantSnapshot,
  validRequest,
  Wire,
  type Receiver,
  type WireReply,
} from './support.js';

/** Runs of each property (bounded: the whole file stays well under a minute). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const BODY_LIMIT = 64 * 1024 * 4; // 256 KB: large enough for the 100 KB strings, small enough to exceed cheaply.

describe('fuzzing every operation', () => {
  let h: Harness;
  let wire: Wire;
  let m: FixtureManifest;
  let receiver: Receiver;
  let forged: { name: string; token: string }[];
  const ids: { subscriptionId?: string; notificationId?: string } = {};

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startHarness({ retrySchedule: [0], deliveryTimeoutMs: 2000, bodyLimit: BODY_LIMIT });
    wire = new Wire(h.url);
    m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
    receiver.secrets.add((await h.call('GET', '/__mock/webhook-secret')).body.secret as string);
    const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
      body: { endpoint: receiver.url, eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
      op: 'createWebhookSubscription',
    });
    expect(sub.status).toBe(201);
    ids.subscriptionId = sub.body.id as string;
    const emitted = await h.call('POST', '/__mock/events', { body: { eventName: 'Warehouse.Stock.Updated' } });
    expect(emitted.status).toBe(202);
    ids.notificationId = emitted.body.notifications[0] as string;
    forged = await forgedTokens(h.mock.control.options.jwtSecret, h.org);
  });

  afterAll(async () => {
    await wire?.close();
    await h?.close();
    await receiver?.close();
    expect(receiver?.badSignatures ?? 0).toBe(0);
  });

  describe.each(OPERATIONS.map((op) => ({ operationId: op.operationId, op })))('$operationId', ({ op }) => {
    if (op.pathParams.length > 0)
      it('keeps the invariants with traversal, encoded, control, Unicode and overlong path parameters', async () => {
        const base = validRequest(op, m, ids);
        const params = fc.record(
          Object.fromEntries(op.pathParams.map((p) => [p.name, segmentArb])) as Record<string, fc.Arbitrary<string>>,
        );
        await fc.assert(
          fc.asyncProperty(params, async (values) => {
            const path = pathOf(op, values);
            const reply = await probe(wire, {
              method: method(op),
              path,
              headers: bearer(h.admin),
              ...(base.body !== undefined ? { body: base.body } : {}),
            });
            // A random parameter addresses nothing (or is refused as invalid); only the error catalog may know a code.
            // (A segment like `subscriptions` may reach another operation: the invariants were checked for that one.)
            if (op.operationId !== 'getError' && operationOf(method(op), path) === op)
              expect([400, 404, 405], `${path} -> ${reply.status}`).toContain(reply.status);
          }),
          { numRuns: RUNS },
        );
        for (const segment of ADVERSARIAL_SEGMENTS) {
          const values = Object.fromEntries(op.pathParams.map((p) => [p.name, segment]));
          await probe(wire, {
            method: method(op),
            path: pathOf(op, values),
            headers: bearer(h.admin),
            ...(base.body !== undefined ? { body: base.body } : {}),
          });
        }
      });

    if (op.requestBody !== undefined)
      it('keeps the invariants with malformed, mistyped, Unicode and deeply nested bodies', async () => {
        const { path, body: valid = '{}' } = validRequest(op, m, ids);
        const keys = schemaKeys(op.requestBody?.schema ?? '');
        const fieldValue = (key: string) =>
          key === 'endpoint'
            ? fc.oneof(endpointValue(receiver.url), wrongValue)
            : key === 'eventName'
              ? fc.oneof(fc.constantFrom(...EVENT_NAMES), textValue, wrongValue)
              : fc.oneof(textValue, wrongValue);
        const objectBody = fc
          .record(Object.fromEntries(keys.map((k) => [k, fieldValue(k)])) as Record<string, fc.Arbitrary<unknown>>, {
            requiredKeys: [],
          })
          .chain((o) =>
            fc
              .option(fc.tuple(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 })), { nil: undefined })
              .map((extra) => (extra ? { ...o, [extra[0]]: extra[1] } : o)),
          )
          .map((o) => JSON.stringify(o));
        const bodyArb = fc.oneof(
          objectBody,
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.json({ maxDepth: 3 }),
          fc.nat({ max: valid.length }).map((n) => valid.slice(0, n)),
          fc.constantFrom(...ADVERSARIAL_BODIES),
          fc.constantFrom(...keys).map((k) => `{"${k}":1e999}`),
        );
        await fc.assert(
          fc.asyncProperty(
            bodyArb,
            fc.constantFrom(...CONTENT_TYPES),
            fc.boolean(),
            async (body, contentType, withType) => {
              const headers = {
                authorization: `Bearer ${h.admin}`,
                ...(withType ? { 'content-type': contentType } : {}),
              };
              await probe(wire, { method: method(op), path, headers, body });
            },
          ),
          { numRuns: RUNS * 2 },
        );
        for (const body of ADVERSARIAL_BODIES) {
          const reply = await probe(
            wire,
            { method: method(op), path, headers: bearer(h.admin), body },
            'adversarial body',
          );
          // `{}` is a complete search (every list parameter is optional); everything else is refused.
          if (!(op.operationId === 'searchFamilies' && body === '{}'))
            expect(reply.status, body.slice(0, 40)).toBeGreaterThanOrEqual(400);
        }
        // 100 KB strings, under the body limit: refused or answered, never a failure.
        for (const key of keys) {
          const big = JSON.stringify({ ...(JSON.parse(valid) as object), [key]: `\u202e${'x'.repeat(100 * 1024)}` });
          await probe(wire, { method: method(op), path, headers: bearer(h.admin), body: big }, `100 KB ${key}`);
        }
      });

    if (op.list !== undefined)
      it('keeps the invariants with mangled list parameters', async () => {
        const list = op.list!;
        const fields = list.fields.map((f) => f.name);
        const { path, body: valid } = validRequest(op, m, ids);
        if (list.parametersIn === 'query') {
          const repeated = <T>(arb: fc.Arbitrary<T>) =>
            fc.option(fc.array(arb, { minLength: 1, maxLength: 3 }), { nil: undefined });
          const query = fc.record({
            pageNumber: repeated(pageArb),
            pageSize: repeated(pageArb),
            filterBy: repeated(filterArb(fields)),
            sortBy: repeated(sortArb(fields)),
            odd: fc.option(
              fc.constantFrom(
                'pageSize[]=1',
                'pageSize[a]=1',
                'filterBy[]=x',
                'sortBy[0]=id',
                '__proto__[x]=1',
                'pageNumber',
                '&&&',
                '=',
                'pageSize=%',
                'filterBy=%ED%A0%80',
              ),
              { nil: undefined },
            ),
          });
          await fc.assert(
            fc.asyncProperty(query, async (q) => {
              const parts: string[] = [];
              for (const name of ['pageNumber', 'pageSize', 'filterBy', 'sortBy'] as const)
                for (const v of q[name] ?? []) parts.push(`${name}=${encodeSegment(v)}`);
              if (q.odd) parts.push(q.odd);
              const full = `${path}?${parts.join('&')}`;
              const reply = await probe(wire, { method: 'GET', path: full, headers: bearer(h.admin) });
              expect([200, 400, 431], `${full.slice(0, 200)} -> ${reply.status}`).toContain(reply.status);
            }),
            { numRuns: RUNS * 2 },
          );
        } else {
          const anyValue = (arb: fc.Arbitrary<unknown>) => fc.option(fc.oneof(arb, wrongValue), { nil: undefined });
          const body = fc.record({
            pageNumber: anyValue(fc.oneof(fc.integer({ min: -10, max: 100_000 }), fc.double())),
            pageSize: anyValue(fc.oneof(fc.integer({ min: -10, max: 2000 }), fc.double())),
            filterBy: anyValue(filterArb(fields)),
            sortBy: anyValue(sortArb(fields)),
          });
          await fc.assert(
            fc.asyncProperty(body, async (b) => {
              const reply = await probe(wire, {
                method: method(op),
                path,
                headers: bearer(h.admin),
                body: JSON.stringify(b),
              });
              expect([200, 400], `${JSON.stringify(b).slice(0, 200)} -> ${reply.status}`).toContain(reply.status);
            }),
            { numRuns: RUNS * 2 },
          );
          expect(valid).toBeDefined();
        }
      });

    it('refuses forged, tampered and expired tokens and bad API keys with the plain 401', async () => {
      const { path, body } = validRequest(op, m, ids);
      const send = async (headers: Record<string, string>, context: string): Promise<WireReply> => {
        const reply = await probe(
          wire,
          {
            method: method(op),
            path,
            headers: { 'content-type': 'application/json', ...headers },
            ...(body !== undefined ? { body } : {}),
          },
          context,
        );
        expect(reply.status, `${context}: ${reply.text.slice(0, 200)}`).toBe(401);
        expect(reply.body, context).not.toHaveProperty('code');
        return reply;
      };
      for (const { name, token } of forged) await send({ authorization: `Bearer ${token}` }, name);
      const printable = fc.string({
        unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 300,
      });
      const latin1 = fc.string({
        unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)),
        minLength: 1,
        maxLength: 20,
      });
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            printable,
            latin1,
            printable.map((s) => `opsk_${s}`),
          ),
          fc.boolean(),
          async (key, withToken) => {
            await send(
              { 'x-api-key': key, ...(withToken ? { authorization: `Bearer ${h.admin}` } : {}) },
              `X-Api-Key ${JSON.stringify(key.slice(0, 40))}`,
            );
          },
        ),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            printable,
            printable.map((s) => `Bearer ${s}`),
            printable.map((s) => `Bearer ${s}.${s}.${s}`),
          ),
          async (value) => {
            await send({ authorization: value }, `Authorization ${JSON.stringify(value.slice(0, 40))}`);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('answers every status forced with Prefer within the contract', async () => {
      const { path, body } = validRequest(op, m, ids);
      for (const e of op.errors) {
        const reply = await probe(wire, {
          method: method(op),
          path,
          headers: bearer(h.admin, { prefer: `code=${e.status}` }),
          ...(body !== undefined ? { body } : {}),
        });
        expect(reply.status).toBe(e.status);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
          async (prefer) => {
            await probe(wire, {
              method: method(op),
              path: pathOf(op, {}),
              headers: bearer(h.admin, { prefer }),
              ...(body !== undefined ? { body: '{"x":' } : {}),
            });
          },
        ),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    });
  });

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
    for (const op of OPERATIONS.filter((o) => o.requestBody)) {
      for (const body of deep) {
        const reply = await probe(wire, {
          method: method(op),
          path: validRequest(op, m, ids).path,
          headers: bearer(h.admin),
          body,
        });
        expect(reply.status).toBe(400);
      }
    }
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

  it('keeps request journal bodies bounded', async () => {
    const journal = await probe(wire, { method: 'GET', path: '/__mock/requests', headers: bearer(h.admin) });
    // Bodies over 4096 characters are kept as a 4096-character excerpt; smaller ones as parsed (numbers re-serialised
    // may grow, `1e5` -> `100000`, hence the slack on those).
    const bodies = (journal.body.requests as { body: unknown }[]).map((e) => e.body);
    expect(bodies.length).toBeGreaterThan(100);
    for (const body of bodies) {
      if (typeof body === 'string') expect(body.length).toBeLessThanOrEqual(4096);
      else expect(JSON.stringify(body ?? null).length).toBeLessThanOrEqual(2 * 4096);
    }
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

  describe('refused writes', () => {
    it('leave the tenant exactly as it was', async () => {
      const org = `${h.org}-refused`;
      const token = await h.token(adminClaims(org));
      const limited = await h.token(limitedClaims(org));
      const tm = (await h.call('GET', '/__mock/fixtures', { token })).body as FixtureManifest;
      receiver.secrets.add((await h.call('GET', '/__mock/webhook-secret', { token })).body.secret as string);
      const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token,
        body: { endpoint: receiver.url, eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
        op: 'createWebhookSubscription',
      });
      const emitted = await h.call('POST', '/__mock/events', { token, body: { eventName: 'Warehouse.Stock.Updated' } });
      const revokedKey = await h.call('POST', '/v1/access/apiKeys', {
        token,
        body: { name: 'revoked' },
        op: 'createApiKey',
      });
      expect((await h.call('DELETE', `/__mock/api-keys/${revokedKey.body.id as string}`, { token })).status).toBe(204);
      const otherKey = await h.call('POST', '/v1/access/apiKeys', {
        body: { name: 'of another tenant' },
        op: 'createApiKey',
      });
      const tids = { subscriptionId: sub.body.id as string, notificationId: emitted.body.notifications[0] as string };
      await settleWebhooks(h);
      const before = await tenantSnapshot(h, wire, token, org, tm);

      const writes = OPERATIONS.filter((op) => op.method !== 'get');
      const forgedForOrg = await forgedTokens(h.mock.control.options.jwtSecret, org);
      let refused = 0;
      const expectRefused = async (
        op: OperationDef,
        headers: Record<string, string>,
        body: string | undefined,
        context: string,
      ) => {
        const { path } = validRequest(op, tm, tids);
        const reply = await probe(
          wire,
          { method: method(op), path, headers, ...(body !== undefined ? { body } : {}) },
          context,
        );
        expect(reply.status, `${op.operationId} ${context}: ${reply.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        refused++;
      };
      for (const op of writes) {
        const { body } = validRequest(op, tm, tids);
        await expectRefused(op, { 'content-type': 'application/json' }, body, 'no credentials');
        for (const { name, token: forgedToken } of forgedForOrg)
          await expectRefused(op, bearer(forgedToken), body, name);
        if (op.permission.name !== null && op.operationId !== 'searchFamilies')
          await expectRefused(op, bearer(limited), body, 'limited token');
        await expectRefused(
          op,
          { 'content-type': 'application/json', 'x-api-key': revokedKey.body.key as string },
          body,
          'revoked API key',
        );
        await expectRefused(
          op,
          bearer(token, { 'x-api-key': otherKey.body.key as string }),
          body,
          'API key of another tenant',
        );
        await expectRefused(op, bearer(token, { 'x-api-key': 'opsk_unknown' }), body, 'unknown API key');
        for (const e of op.errors)
          await expectRefused(op, bearer(token, { prefer: `code=${e.status}` }), body, `Prefer: code=${e.status}`);
        if (op.requestBody) {
          const keys = schemaKeys(op.requestBody.schema);
          const bad = [
            '{',
            '[]',
            'null',
            '{"x":1}',
            `{"${keys[0]}":1e999}`,
            JSON.stringify({ ...(JSON.parse(body ?? '{}') as object), extra: true }),
            '['.repeat(10_000),
          ];
          if (op.operationId !== 'searchFamilies')
            for (const b of bad) await expectRefused(op, bearer(token), b, `body ${b.slice(0, 20)}`);
          await expectRefused(op, bearer(token, { 'content-type': 'text/plain' }), body, 'text/plain');
          await expectRefused(
            op,
            bearer(token),
            `${body?.slice(0, -1) ?? '{'},"pad":"${'x'.repeat(BODY_LIMIT)}"}`,
            'over the limit',
          );
          await expectRefused(op, bearer(token), undefined, 'no body');
        }
      }
      // Wrong ids (another tenant's, traversal) on the operations that write by id.
      for (const path of [
        `/v1/items/skus/${encodeURIComponent(m.sku.reference)}x/stock`,
        `/v1/items/skus/${tm.sku.reference}/inspections/${m.sku.inspectionIds[0] ?? 'x'}`,
        `/v1/items/families/${m.deletableFamilyId}`,
        `/v1/items/families/..%2F${tm.deletableFamilyId}`,
        `/v1/planning/purchaseOrders/${m.purchaseOrderLine.purchaseOrderId}/lines/${m.purchaseOrderLine.lineId}`,
        `/v1/notifications/webhook/subscriptions/${ids.subscriptionId ?? 'x'}`,
        `/v1/notifications/webhook/${ids.notificationId ?? 'x'}/retry`,
      ]) {
        const op = OPERATIONS.find(
          (o) => o.method !== 'get' && new RegExp(`^${o.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path),
        )!;
        const reply = await probe(
          wire,
          {
            method: method(op),
            path,
            headers: bearer(token),
            ...(op.requestBody ? { body: validRequest(op, tm, tids).body } : {}),
          },
          'foreign id',
        );
        expect(reply.status, path).toBe(404);
        refused++;
      }
      // Admin writes refused the same way.
      for (const [path, body] of [
        ['/__mock/clock', '{"advanceSeconds":-1}'],
        ['/__mock/clock', '{"advanceSeconds":1e999}'],
        ['/__mock/clock', '{"advanceSeconds":"60"}'],
        ['/__mock/events', '{"eventName":"No.Such.Event"}'],
        ['/__mock/events', '{"eventName":"Warehouse.Stock.Updated","eventVersion":0}'],
        ['/__mock/events', '{"eventName":"Warehouse.Stock.Updated","data":[]}'],
        ['/__mock/events', '{'],
      ] as const) {
        const reply = await probe(wire, { method: 'POST', path, headers: bearer(token), body });
        expect(reply.status, `${path} ${body}`).toBe(400);
        refused++;
      }
      expect(
        (
          await wire.send({
            method: 'DELETE',
            path: `/__mock/api-keys/${otherKey.body.id as string}`,
            headers: bearer(token),
          })
        ).status,
      ).toBe(404);

      await settleWebhooks(h);
      expect(refused).toBeGreaterThan(400);
      expect(await tenantSnapshot(h, wire, token, org, tm)).toEqual(before);
    });
  });
});
