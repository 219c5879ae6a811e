import type { ApiKey } from '../../spec/schemas/access.js';
import type { PurchaseOrderLine } from '../../spec/schemas/planning.js';
import type { SkuRecord } from '../../fixtures/seed/model.js';
import type { TenantState } from '../store/tenant-state.js';

/**
 * What a tenant holds that the API does not show (stock entries, purchase order lines, key records, deleted
 * families, the clock offset), read-only, for tests that assert on stored state. Every value is a copy: a test can
 * never write around the store's one write seam (`TenantState.commit`). Inferred: a testing aid, not in the reference.
 */
export interface TenantView {
  readonly org: string;
  /** How far the tenant's virtual clock runs ahead of real time, seconds. */
  readonly clockOffsetSeconds: number;
  /** The stored record of a SKU (with its stock entries), if the reference exists. */
  sku(reference: string): SkuRecord | undefined;
  /** Every purchase order line of the tenant. */
  purchaseOrderLines(): PurchaseOrderLine[];
  /** Every API key of the tenant (revoked ones too, inactive), oldest first. */
  apiKeys(): ApiKey[];
  /** Ids of the families deleted (kept so a second delete answers ALREADY_DELETED). */
  deletedFamilies(): string[];
  /** References of the tenant's stock locations. */
  locations(): string[];
}

/** A view of one tenant state object (the one in memory when the view was made). */
export function viewOf(state: TenantState): TenantView {
  return {
    org: state.org,
    clockOffsetSeconds: state.clock.offset / 1000,
    sku: (reference) => structuredClone(state.skuRecords.get(reference)),
    purchaseOrderLines: () => structuredClone([...state.purchaseOrderLines.values()]),
    apiKeys: () => structuredClone([...state.apiKeys.values()].map((record) => record.apiKey)),
    deletedFamilies: () => [...state.familyTombstones.keys()],
    locations: () => [...state.locations.keys()],
  };
}
