/**
 * Kept list pages (mock/lists/page-texts.ts): a list request asked again is answered with the very bytes of the first
 * answer while its list is unchanged, and with the list as it is now after any write to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { adminClaims } from '../auth/presets.js';
import { injectHarness, type InjectHarness } from './harness.js';

const enc = encodeURIComponent;
const PATH = `/v1/items/skus?pageSize=7&sortBy=-totalStock&filterBy=${enc('name[Contains]e')}`;

async function keptPages(h: InjectHarness): Promise<number | undefined> {
  return (await h.call('GET', '/__mock/stats')).body.listPages?.entries;
}

describe('kept list pages', () => {
  let h: InjectHarness;
  let m: FixtureManifest;

  beforeAll(async () => {
    h = await injectHarness();
    m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
  });

  afterAll(async () => {
    await h?.close();
  });

  it('answers the same list request again with the same bytes and headers, from one kept page', async () => {
    const before = (await keptPages(h)) ?? 0;
    const first = await h.call('GET', PATH, { op: 'listSkus' });
    const second = await h.call('GET', PATH, { op: 'listSkus' });
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['content-length']).toBe(first.headers['content-length']);
    expect(await keptPages(h)).toBe(before + 1);
  });

  it('answers with the list as it is after a write to it, not with the page kept before', async () => {
    const byStock = '/v1/items/skus?pageSize=7&sortBy=-totalStock';
    const first = await h.call('GET', byStock, { op: 'listSkus' });
    expect((await h.call('GET', byStock)).text).toBe(first.text);
    const top = first.body.results[0] as { reference: string; totalStock: number };
    expect(top.reference).not.toBe(m.sku.reference);
    const set = await h.call('PUT', `/v1/items/skus/${enc(m.sku.reference)}/stock`, {
      body: { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: top.totalStock + 1_000_000 },
      op: 'updateSkuStock',
    });
    expect(set.status).toBe(204);
    const after = await h.call('GET', byStock, { op: 'listSkus' });
    expect(after.body.results[0].reference).toBe(m.sku.reference);
    expect(after.body.results.slice(1)).toEqual(first.body.results.slice(0, 6));
  });

  it("keeps each tenant's pages apart: the same request of another tenant gets that tenant's list", async () => {
    const other = await h.token(adminClaims(`${h.org}-other`));
    const mine = await h.call('GET', PATH, { op: 'listSkus' });
    const theirs = await h.call('GET', PATH, { token: other, op: 'listSkus' });
    expect(theirs.status).toBe(200);
    expect(theirs.text).not.toBe(mine.text);
  });

  it('tells a repeated query parameter apart and keeps nothing for it', async () => {
    const before = await keptPages(h);
    const reply = await h.call('GET', '/v1/items/skus?pageSize=5&pageSize=6');
    expect(reply.status).toBe(400);
    expect(await keptPages(h)).toBe(before);
  });

  it('keeps no pages in a mock with planted faults (their answers are not the faithful ones)', async () => {
    const faulty = await injectHarness({ faults: new Set(['total-pages-off-by-one']) });
    try {
      await faulty.call('GET', PATH);
      await faulty.call('GET', PATH);
      expect(await keptPages(faulty)).toBeUndefined();
    } finally {
      await faulty.close();
    }
  });
});
