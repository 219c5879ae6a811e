import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { injectHarness, type InjectHarness } from './harness.js';

describe('the operations over state', () => {
  let h: InjectHarness;
  let m: FixtureManifest;

  beforeAll(async () => {
    h = await injectHarness();
    const fixtures = await h.call('GET', '/__mock/fixtures');
    expect(fixtures.status).toBe(200);
    m = fixtures.body as FixtureManifest;
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('assets and the tenant', () => {
    it('lists the maintenance assets', async () => {
      const reply = await h.call('GET', '/v1/maintenance/assets?pageSize=1000', { op: 'listAssets' });
      expect(reply.status).toBe(200);
      expect(reply.body.totalCount).toBeGreaterThan(0);
      expect(reply.body.results).toHaveLength(reply.body.totalCount);
      const ids = new Set(reply.body.results.map((a: { id: string }) => a.id));
      for (const asset of reply.body.results as { parentId: string | null }[])
        if (asset.parentId !== null) expect(ids.has(asset.parentId)).toBe(true);
    });

    it('reads the tenant of the credentials', async () => {
      const reply = await h.call('GET', '/v1/admin/tenants/self', { op: 'getTenantSelf' });
      expect(reply.status).toBe(200);
      expect(reply.body.orgCode).toBe(h.org);
      expect(m.orgCode).toBe(h.org);
    });
  });
});
