import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTenant, expectProblem, injectHarness, type InjectHarness } from './harness.js';

const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const tenant = () => adminTenant(h);

  describe('GET and POST /__mock/clock', () => {
    it('reads the tenant clock and advances it', async () => {
      const t = await tenant();
      const before = await h.call('GET', '/__mock/clock', { token: t.token });
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ now: expect.any(String), offsetSeconds: 0 });
      expect(Math.abs(Date.parse(before.body.now) - Date.now())).toBeLessThan(60_000);
      const advanced = await h.call('POST', '/__mock/clock', { token: t.token, body: { advanceSeconds: 3600 } });
      expect(advanced.status).toBe(200);
      expect(advanced.body.offsetSeconds).toBe(3600);
      expect(Date.parse(advanced.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3600_000);
      const again = await h.call('POST', '/__mock/clock', { token: t.token, body: { advanceSeconds: 0.5 } });
      expect(again.body.offsetSeconds).toBe(3600.5);
      expect((await h.call('GET', '/__mock/clock', { token: t.token })).body.offsetSeconds).toBe(3600.5);
    });

    it('moves only the caller tenant clock, and the time it stamps', async () => {
      const a = await tenant();
      const b = await tenant();
      await h.call('POST', '/__mock/clock', { token: a.token, body: { advanceSeconds: 86_400 * 30 } });
      expect((await h.call('GET', '/__mock/clock', { token: b.token })).body.offsetSeconds).toBe(0);
      const created = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
        token: a.token,
        body: { endpoint: 'https://x.example/h', eventName: 'Items.Sku.Created', eventVersion: 1 },
        op: 'createWebhookSubscription',
      });
      expect(Date.parse(created.body.createdAt) - Date.now()).toBeGreaterThan(86_400_000 * 29);
    });

    it.each([
      { what: 'a negative amount', body: { advanceSeconds: -1 } },
      { what: 'a huge amount', body: { advanceSeconds: MAX_ADVANCE_SECONDS + 1 } },
      { what: 'NaN as text', body: { advanceSeconds: 'NaN' } },
      { what: 'a number as text', body: { advanceSeconds: '60' } },
      { what: 'no amount', body: {} },
    ])('answers $what with 400 naming advanceSeconds', async ({ body }) => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', { token: t.token, body });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR', 'POST /__mock/clock');
      expect(reply.body.parameters).toEqual({ field: 'advanceSeconds' });
      expect((await h.call('GET', '/__mock/clock', { token: t.token })).body.offsetSeconds).toBe(0);
    });

    it('answers a bare NaN (invalid JSON) with 400', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', { token: t.token, raw: '{"advanceSeconds": NaN}' });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    });

    it('accepts the largest amount', async () => {
      const t = await tenant();
      const reply = await h.call('POST', '/__mock/clock', {
        token: t.token,
        body: { advanceSeconds: MAX_ADVANCE_SECONDS },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.offsetSeconds).toBe(MAX_ADVANCE_SECONDS);
    });

    it('answers without credentials with the plain 401', async () => {
      expectProblem(await h.call('GET', '/__mock/clock', { token: null }), 401, null, 'GET /__mock/clock');
      expectProblem(
        await h.call('POST', '/__mock/clock', { token: null, body: { advanceSeconds: 1 } }),
        401,
        null,
        'POST /__mock/clock',
      );
    });
  });
});
