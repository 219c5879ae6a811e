import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, tenantTag } from '../../../fixtures/seed/index.js';
import { Store } from '../store.js';

const FIXED = { now: () => Date.UTC(2026, 0, 1) };
const storeOf = (maxWorlds = 256) =>
  new Store({ seed: DEFAULT_SEED, skus: 40, maxTenants: 100, webhookKey: 'shared-world', clock: FIXED, maxWorlds });

describe("the seed's content is built once and shared by every tenant's world, each under its own identifiers", () => {
  it('gives two tenants the same records, with identifiers of their own', () => {
    const store = storeOf();
    const a = [...store.tenant('a').skus];
    const b = [...store.tenant('b').skus];
    expect(b.map((s) => s.reference)).toEqual(a.map((s) => s.reference));
    expect(b.map((s) => s.name)).toEqual(a.map((s) => s.name));
    expect(b.map((s) => s.id.replace(tenantTag('b'), tenantTag('a')))).toEqual(a.map((s) => s.id));
    expect(b.filter((s) => a.some((other) => other.id === s.id))).toEqual([]);
  });

  it("shares the records that hold no identifier between tenants' worlds (one copy in memory)", () => {
    const store = storeOf();
    const [reference] = store.tenant('a').locations.keys();
    if (reference === undefined) throw new Error('no location seeded');
    expect(store.tenant('b').locations.get(reference)).toBe(store.tenant('a').locations.get(reference));
  });

  it('builds a dropped world again over the same shared content', () => {
    const store = storeOf(1);
    const [reference] = store.tenant('a').locations.keys();
    if (reference === undefined) throw new Error('no location seeded');
    const shared = store.tenant('a').locations.get(reference);
    store.tenant('b').skus;
    expect(store.peek('a')?.worldInMemory).toBe(false);
    expect(store.tenant('a').locations.get(reference)).toBe(shared);
  });

  it("keeps one tenant's writes out of the others' worlds", () => {
    const store = storeOf();
    const writer = store.tenant('writer');
    const [first] = writer.skus;
    if (!first) throw new Error('no SKU seeded');
    const record = writer.skuRecords.get(first.reference);
    if (!record) throw new Error('no record');
    writer.commit('sku', first.reference, { ...record, item: { ...record.item, name: 'Written by one tenant' } });
    expect(writer.skuRecords.get(first.reference)?.item.name).toBe('Written by one tenant');
    expect(store.tenant('reader').skuRecords.get(first.reference)?.item.name).toBe(first.name);
    expect([...store.tenant('reader').skus][0]?.name).toBe(first.name);
  });
});
