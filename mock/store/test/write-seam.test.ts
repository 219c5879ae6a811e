import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import type { Change } from '../change.js';
import { Store } from '../store.js';
import type { TenantState } from '../tenant-state.js';

/** A fixed base clock: the tests read state, never time. */
const FIXED = { now: () => Date.UTC(2025, 0, 1) };

function newStore(): Store {
  return new Store({ seed: DEFAULT_SEED, skus: 5, maxTenants: 10, webhookKey: 'write-seam-test', clock: FIXED });
}

/** The first value of a seeded collection (every seeded world holds at least one of each). */
function first<T>(values: Iterable<T>): T {
  for (const value of values) return value;
  throw new Error('the seeded world holds none');
}

/** What a tenant holds, as comparable plain values. */
function contents(t: TenantState) {
  return {
    skus: [...t.skuRecords.entries()],
    skuItems: [...t.skus.values()],
    families: [...t.families.values()],
    tombstones: [...t.familyTombstones.entries()],
    assets: [...t.assets.values()],
    lines: [...t.purchaseOrderLines.entries()],
    apiKeys: [...t.apiKeys.entries()],
    apiKeysByValue: [...t.apiKeysByValue.entries()],
    subscriptions: [...t.subscriptions.values()],
    clock: t.clock.offset,
  };
}

/** A write of SKUs, families, assets, purchase order lines, API keys, subscriptions and the clock. */
function writeEachKind(t: TenantState): void {
  const [reference, sku] = first(t.skuRecords.entries());
  t.commit('sku', reference, { ...sku, item: { ...sku.item, lastModifiedAt: t.nowIso() } });
  const family = first(t.families.values());
  t.commit('family', family.id, { family, deletedAt: t.nowIso() });
  const asset = first(t.assets.values());
  t.commit('asset', asset.id, null);
  const [lineKey, line] = first(t.purchaseOrderLines.entries());
  t.commit('purchaseOrderLine', lineKey, { ...line, comment: 'changed' });
  const apiKey = { id: 'key_1', key: 'opsk_seam', name: 'seam', orgCode: t.org, isActive: true };
  t.commit('apiKey', 'key_1', { apiKey, subject: 'seam@test', permissions: [], roles: [] });
  t.commit('subscription', 'sub_1', {
    id: 'sub_1',
    endpoint: 'https://receiver.example/hooks',
    eventName: 'Warehouse.Shipment.Shipped',
    eventVersion: 1,
    createdAt: t.nowIso(),
  });
  t.commit('clock', 'offset', 60_000);
}

describe('the write seam of a tenant', () => {
  it('hands every committed change to the listeners with the before and after of its kind', () => {
    const store = newStore();
    const seen: Change[] = [];
    store.onChange((change) => seen.push(change));
    const tenant = store.tenant('seam-a');
    const family = first(tenant.families.values());
    tenant.commit('family', family.id, { family, deletedAt: tenant.nowIso() });
    tenant.commit('clock', 'offset', 1000);

    expect(seen.map((c) => c.entity)).toEqual(['family', 'clock']);
    expect(seen[0]).toMatchObject({ org: 'seam-a', id: family.id, before: family, after: { family } });
    expect(seen[1]).toMatchObject({ before: 0, after: 1000 });
    expect(tenant.families.get(family.id)).toBeUndefined();
    expect(tenant.familyTombstones.get(family.id)?.family).toEqual(family);
  });

  it('rebuilds the same state when the changes are replayed onto a freshly seeded tenant (what persistence does)', () => {
    const written = newStore();
    const changes: Change[] = [];
    written.onChange((change) => changes.push(change));
    const original = written.tenant('seam-b');
    writeEachKind(original);

    const replayed = newStore().tenant('seam-b');
    for (const change of changes) replayed.apply({ ...change, before: null });
    expect(contents(replayed)).toEqual(contents(original));
  });

  it('finds an API key by its value once committed and forgets the value once the key is removed', () => {
    const store = newStore();
    const tenant = store.tenant('seam-c');
    const apiKey = { id: 'key_1', key: 'opsk_seam_c', name: 'seam', orgCode: tenant.org, isActive: true };
    tenant.commit('apiKey', 'key_1', { apiKey, subject: 'seam@test', permissions: [], roles: [] });
    expect(store.apiKeyOrg('opsk_seam_c')).toBe('seam-c');

    tenant.commit('apiKey', 'key_1', null);
    expect(store.apiKeyOrg('opsk_seam_c')).toBeUndefined();
    expect(tenant.apiKeysByValue.has('opsk_seam_c')).toBe(false);
  });

  it('keeps the Pending notifications in the order they became Pending, whatever writes them (commit or replay)', () => {
    const tenant = newStore().tenant('seam-d');
    const notification = (id: string, status: 'Pending' | 'Success' | 'Failure') => ({
      id,
      status,
      eventId: 'evt_1',
      eventName: 'Warehouse.Stock.Updated',
      eventVersion: 1,
      subscriptionId: 'sub_1',
      endpoint: 'https://receiver.example/hooks',
      attemptCount: 0,
      nextAttemptAt: null,
      lastAttemptAt: null,
      createdAt: tenant.nowIso(),
      lastModifiedAt: tenant.nowIso(),
      failureReason: null,
      payload: {
        id: 'evt_1',
        eventName: 'Warehouse.Stock.Updated',
        eventVersion: 1,
        occurredAt: '',
        orgCode: '',
        data: {},
      },
    });
    for (const id of ['ntf_1', 'ntf_2', 'ntf_3']) tenant.commit('notification', id, notification(id, 'Pending'));
    // Still Pending after an attempt: keeps its place.
    tenant.commit('notification', 'ntf_1', { ...notification('ntf_1', 'Pending'), attemptCount: 1 });
    tenant.commit('notification', 'ntf_2', notification('ntf_2', 'Failure'));
    tenant.apply({
      org: 'seam-d',
      entity: 'notification',
      id: 'ntf_4',
      before: null,
      after: notification('ntf_4', 'Success'),
      at: 0,
    });
    expect([...tenant.pendingNotifications]).toEqual(['ntf_1', 'ntf_3']);
    // A manual retry makes a finished one Pending again: it is then the newest.
    tenant.commit('notification', 'ntf_2', notification('ntf_2', 'Pending'));
    tenant.commit('notification', 'ntf_3', null);
    expect([...tenant.pendingNotifications]).toEqual(['ntf_1', 'ntf_2']);
  });
});
