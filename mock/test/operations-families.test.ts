import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

const enc = encodeURIComponent;

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

  describe('families', () => {
    it('searches with pageSize, filterBy and sortBy in the body', async () => {
      const reply = await h.call('POST', '/v1/items/families/search', {
        body: { pageSize: 5, filterBy: 'skuCount[Gt]0', sortBy: '-skuCount' },
        op: 'searchFamilies',
      });
      expect(reply.status).toBe(200);
      expect(reply.body.pageSize).toBe(5);
      expect(reply.body.results.length).toBeLessThanOrEqual(5);
      const counts = reply.body.results.map((f: { skuCount: number }) => f.skuCount);
      for (const c of counts) expect(c).toBeGreaterThan(0);
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    });

    it('searches with an empty body using the defaults', async () => {
      const reply = await h.call('POST', '/v1/items/families/search', { body: {}, op: 'searchFamilies' });
      expect(reply.status).toBe(200);
      expect(reply.body.pageNumber).toBe(1);
      expect(reply.body.pageSize).toBe(25);
    });

    it('deletes a family with 204, then 409 ITEMS.FAMILY.ALREADY_DELETED, and hides it from search', async () => {
      const id = m.deletableFamilyId;
      const found = await h.call('POST', '/v1/items/families/search', {
        body: { filterBy: `id[Equals]${id}` },
        op: 'searchFamilies',
      });
      expect(found.body.totalCount).toBe(1);
      const del = await h.call('DELETE', `/v1/items/families/${id}`, { op: 'deleteFamily' });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      const again = await h.call('DELETE', `/v1/items/families/${id}`, { op: 'deleteFamily' });
      expectProblem(again, 409, 'ITEMS.FAMILY.ALREADY_DELETED', `DELETE /v1/items/families/${id}`);
      const gone = await h.call('POST', '/v1/items/families/search', {
        body: { filterBy: `id[Equals]${id}` },
        op: 'searchFamilies',
      });
      expect(gone.body.totalCount).toBe(0);
    });

    it('answers an unknown family with 404', async () => {
      const reply = await h.call('DELETE', '/v1/items/families/fam_nope', { op: 'deleteFamily' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'Family', id: 'fam_nope' });
    });

    it('detaches the SKUs of a deleted family', async () => {
      const withSkus = await h.call('POST', '/v1/items/families/search', {
        body: { pageSize: 1, filterBy: 'skuCount[Gt]0' },
        op: 'searchFamilies',
      });
      const family = withSkus.body.results[0] as { id: string };
      const members = await h.call('GET', `/v1/items/skus?filterBy=${enc(`familyId[Equals]${family.id}`)}`, {
        op: 'listSkus',
      });
      expect(members.body.totalCount).toBeGreaterThan(0);
      expect((await h.call('DELETE', `/v1/items/families/${family.id}`, { op: 'deleteFamily' })).status).toBe(204);
      const after = await h.call('GET', `/v1/items/skus?filterBy=${enc(`familyId[Equals]${family.id}`)}`, {
        op: 'listSkus',
      });
      expect(after.body.totalCount).toBe(0);
    });
  });
});
