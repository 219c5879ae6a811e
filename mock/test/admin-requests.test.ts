import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTenant, injectHarness, type InjectHarness } from './harness.js';

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const tenant = () => adminTenant(h);

  describe('GET /__mock/requests', () => {
    it("lists the tenant's calls, newest last, with credentials redacted", async () => {
      const t = await tenant();
      const other = await tenant();
      await h.call('GET', '/v1/items/skus?pageSize=2', { token: t.token, op: 'listSkus' });
      await h.call('POST', '/v1/access/apiKeys', { token: t.token, body: { name: 'journal' }, op: 'createApiKey' });
      await h.call('GET', '/v1/admin/tenants/self', { token: other.token, op: 'getTenantSelf' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      expect(reply.status).toBe(200);
      const requests = reply.body.requests as Record<string, unknown>[];
      expect(requests.map((r) => [r.method, r.path, r.status, r.operationId])).toEqual([
        ['GET', '/v1/items/skus', 200, 'listSkus'],
        ['POST', '/v1/access/apiKeys', 201, 'createApiKey'],
      ]);
      expect(requests[0]).toMatchObject({ query: { pageSize: '2' }, queryString: 'pageSize=2' });
      expect(requests[1]).toMatchObject({ body: { name: 'journal' } });
      for (const r of requests) {
        const headers = r.headers as Record<string, string>;
        expect(headers.authorization).toBe('[redacted]');
        expect(JSON.stringify(r)).not.toContain(t.token);
      }
    });

    it('redacts the API key as well', async () => {
      const t = await tenant();
      const key = await h.call('POST', '/v1/access/apiKeys', {
        token: t.token,
        body: { name: 'k' },
        op: 'createApiKey',
      });
      await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: key.body.key, op: 'listSkus' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      const last = reply.body.requests.at(-1);
      expect(last.headers['x-api-key']).toBe('[redacted]');
      expect(JSON.stringify(reply.body.requests.slice(-1))).not.toContain(key.body.key);
    });

    it('empties the journal on DELETE /__mock/requests (204)', async () => {
      const t = await tenant();
      await h.call('GET', '/v1/admin/tenants/self', { token: t.token, op: 'getTenantSelf' });
      const cleared = await h.call('DELETE', '/__mock/requests', { token: t.token });
      expect(cleared.status).toBe(204);
      expect((await h.call('GET', '/__mock/requests', { token: t.token })).body).toEqual({ requests: [] });
    });

    it('records refused requests of the tenant too', async () => {
      const t = await tenant();
      await h.call('GET', '/v1/items/skus?filterBy=nope[Equals]1', { token: t.token, op: 'listSkus' });
      const reply = await h.call('GET', '/__mock/requests', { token: t.token });
      expect(reply.body.requests.map((r: { status: number }) => r.status)).toEqual([400]);
    });
  });
});
