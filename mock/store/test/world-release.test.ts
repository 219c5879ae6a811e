import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import { Store } from '../store.js';

const FIXED = { now: () => Date.UTC(2026, 0, 1) };
const storeOf = (maxWorlds: number) =>
  new Store({ seed: DEFAULT_SEED, skus: 20, maxTenants: 100, webhookKey: 'world-release', clock: FIXED, maxWorlds });
const skusOf = (store: Store, org: string) => JSON.stringify([...store.tenant(org).skus]);

describe('tenants cost little until they write: worlds of read-only tenants are dropped and built again', () => {
  it('drops the least recently used read-only world beyond the limit, and builds the same one on the next read', () => {
    const store = storeOf(2);
    const first = skusOf(store, 'a');
    skusOf(store, 'b');
    skusOf(store, 'c');
    expect(store.peek('a')?.worldInMemory).toBe(false);
    expect(store.peek('b')?.worldInMemory).toBe(true);
    // Still a tenant (its journal and clock stay), and its world comes back identical.
    expect(store.orgs()).toContain('a');
    expect(skusOf(store, 'a')).toBe(first);
  });

  it('keeps the world of a tenant that wrote, beyond the limit', () => {
    const store = storeOf(1);
    skusOf(store, 'writer');
    const writer = store.tenant('writer');
    writer.commit('clock', 'offset', 60_000);
    skusOf(store, 'reader-1');
    skusOf(store, 'reader-2');
    expect(writer.worldInMemory).toBe(true);
    expect(writer.clock.offset).toBe(60_000);
  });

  it('keeps the world of a tenant whose writes were replayed (a restored or replicated tenant)', () => {
    const store = storeOf(1);
    const restored = store.tenant('restored');
    const sku = [...restored.skus][0];
    if (!sku) throw new Error('no SKU seeded');
    restored.apply({ org: 'restored', entity: 'sku', id: sku.reference, before: null, after: null, at: 0 });
    skusOf(store, 'reader-1');
    skusOf(store, 'reader-2');
    expect(restored.worldInMemory).toBe(true);
    expect([...restored.skus].some((s) => s.reference === sku.reference)).toBe(false);
  });

  it('counts notifications without building a dropped world', () => {
    const store = storeOf(1);
    skusOf(store, 'x');
    skusOf(store, 'y');
    expect(store.peek('x')?.notificationCount).toBe(0);
    expect(store.peek('x')?.worldInMemory).toBe(false);
  });
});
