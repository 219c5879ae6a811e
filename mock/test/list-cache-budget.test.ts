/**
 * `cacheMb` (`--cache-mb`): the list caches of every tenant share one byte budget. A tenant with a large catalog
 * sending filters it never repeats gets the same answers as with room to spare, while the cache use the mock reports
 * stays within the budget.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../spec/operations/index.js';
import { adminClaims } from '../auth/presets.js';
import { freshOrg, injectHarness, type InjectHarness, type Reply } from './harness.js';

const SKUS = 5_000;
const FILTERS = 120;
const MB = 1024 * 1024;

const SORTABLE = (OPERATIONS.find((op) => op.operationId === 'listSkus')?.list?.fields ?? [])
  .filter((f) => f.sortable)
  .map((f) => f.name);

/** The n-th list path of a series whose filters never repeat: a name fragment and a stock threshold, sorted in turn. */
function variedPath(n: number): string {
  const fragments = ['a', 'e', 'i', 'o', 'u', 'an', 'er', 'in', 'on', 'st'];
  const filter = `name[Contains]${fragments[n % fragments.length]} && totalStock[Gt]${n}`;
  const field = SORTABLE[n % SORTABLE.length] ?? 'name';
  const sort = Math.floor(n / SORTABLE.length) % 2 === 0 ? field : `-${field}`;
  return `/v1/items/skus?pageSize=25&pageNumber=${1 + (n % 3)}&sortBy=${encodeURIComponent(sort)}&filterBy=${encodeURIComponent(filter)}`;
}

const answer = (reply: Reply) => ({
  status: reply.status,
  totalCount: reply.body?.totalCount,
  ids: (reply.body?.results ?? []).map((item: { id: string }) => item.id),
});

describe(`a ${SKUS.toLocaleString('en-US')}-SKU tenant under cacheMb: 1`, () => {
  const org = freshOrg('big-catalog');
  let tight: InjectHarness;
  let roomy: InjectHarness;
  let tightToken: string;
  let roomyToken: string;

  beforeAll(async () => {
    tight = await injectHarness({ skus: SKUS, cacheMb: 1 });
    roomy = await injectHarness({ skus: SKUS });
    tightToken = await tight.token(adminClaims(org));
    roomyToken = await roomy.token(adminClaims(org));
  });

  afterAll(async () => {
    await tight?.close();
    await roomy?.close();
  });

  it(`answers ${FILTERS} never-repeated filters as a mock with room to spare, its cache use within 1 MB`, async () => {
    expect(SORTABLE.length).toBeGreaterThan(1);
    let matched = 0;
    for (let n = 0; n < FILTERS; n++) {
      const path = variedPath(n);
      const got = answer(await tight.call('GET', path, { token: tightToken, op: 'listSkus' }));
      expect(got.status).toBe(200);
      expect(got, path).toEqual(answer(await roomy.call('GET', path, { token: roomyToken })));
      if (got.totalCount > 0) matched++;
      const caches = (await tight.call('GET', '/__mock/stats')).body.listCaches;
      expect(caches.limitBytes).toBe(MB);
      expect(caches.usedBytes).toBeLessThanOrEqual(MB);
      expect(caches.usedBytes).toBeGreaterThan(0);
    }
    // The filters selected something (the sorts were real work), and the budget had to drop values to hold.
    expect(matched).toBeGreaterThan(FILTERS / 2);
    const caches = (await tight.call('GET', '/__mock/stats')).body.listCaches;
    expect(caches.evictions).toBeGreaterThan(0);
    // Each filter, asked once, was compiled and matched without being kept (mock/lists/doorkeeper.ts).
    expect(caches.refused).toBeGreaterThanOrEqual(2 * FILTERS);
    expect(caches.shareBytes).toBe(MB / 4);
  });
});
