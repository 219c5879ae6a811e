/** Refused writes of every kind (credentials, permissions, bodies, foreign ids, admin writes) change nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { OPERATIONS, type OperationDef } from '../../../spec/operations/index.js';
import { adminClaims, limitedClaims } from '../../auth/presets.js';
import type { Harness } from '../harness.js';
import { forgedTokens } from './forged-tokens.js';
import { method, schemaKeys } from './arbitraries.js';
import { BODY_LIMIT, startFuzzEnv, stopFuzzEnv, type FuzzEnv } from './fuzz-env.js';
import { bearer, probe, settleWebhooks, tenantSnapshot, validRequest, type Wire, type Receiver } from './support.js';

describe('fuzzing every operation', () => {
  let h: Harness;
  let wire: Wire;
  let m: FixtureManifest;
  let receiver: Receiver;
  const ids: { subscriptionId?: string; notificationId?: string } = {};
  let env: FuzzEnv | undefined;

  beforeAll(async () => {
    env = await startFuzzEnv(ids);
    ({ h, wire, m, receiver } = env);
  });

  afterAll(() => stopFuzzEnv(env ?? {}));

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
