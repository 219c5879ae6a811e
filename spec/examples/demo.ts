import { DEMO_WORLD } from './demo-world.js';

/**
 * Values of the contract's examples: real identifiers of the world the mock seeds for tenant `demo` with its
 * defaults (`npm start`: `--seed` 42, 300 SKUs), generated from the same deterministic generator into
 * `demo-world.ts` (fixtures/examples/write-demo-world.ts; a test fails when it drifts), so every example
 * sent to a fresh `demo` tenant addresses something that exists (inferred: the reference shows no example values).
 * Identifiers embed a hash of the org, so the examples address nothing in another tenant.
 */

const tag = DEMO_WORLD.tenantTag;

/**
 * The n-th identifier of a kind that the mock creates at run time in a fresh tenant (`sub`, `ntf`): ids are
 * sequential per tenant and kind, `<kind>_<tenant tag>_<6 digits>`. spec/test/examples.test.ts proves the mock
 * hands out exactly these.
 */
function createdId(kind: string, n = 1): string {
  return `${kind}_${tag}_${String(n).padStart(6, '0')}`;
}

/** The example values, by what they name. */
export const DEMO = {
  /** An active SKU with inspections, stock in a lot and two units (the first SKU of the world). */
  skuReference: DEMO_WORLD.skuReference,
  inspectionId: DEMO_WORLD.inspectionId,
  locationReference: DEMO_WORLD.locationReference,
  lotId: DEMO_WORLD.lotId,
  baseUnitOfMeasureId: DEMO_WORLD.baseUnitOfMeasureId,
  /** A family with no SKUs (deletable). */
  familyId: DEMO_WORLD.familyId,
  /** A Confirmed purchase order line with nothing received (modifiable). */
  purchaseOrderId: DEMO_WORLD.purchaseOrderId,
  purchaseOrderLineId: DEMO_WORLD.purchaseOrderLineId,
  /** The first subscription created in a fresh tenant. */
  subscriptionId: createdId('sub'),
  /** The first notification created in a fresh tenant. */
  notificationId: createdId('ntf'),
} as const;

/** How an example that addresses a run-time record comes to exist (its operation's `x-example-requires`). */
export const CREATED_BY_SUBSCRIPTION =
  'create-then-use: the first subscription a fresh `demo` tenant creates gets this id, so the example exists after the createWebhookSubscription example ran (`x-example-requires`).';
export const CREATED_BY_STOCK_EVENT =
  'create-then-use: a notification exists only after an event. The createWebhookSubscription example subscribes to Warehouse.Stock.Updated v2 and the updateSkuStock example emits that event, so in a fresh `demo` tenant the first notification gets this id (`x-example-requires`).';
