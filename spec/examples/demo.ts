import { DEFAULT_SEED, DEFAULT_SKUS, generateWorld, tenantTag } from '../../fixtures/seed/index.js';

/**
 * Values of the contract's examples: real identifiers of the world the mock seeds for tenant `demo` with its
 * defaults (`npm start`: `--seed` 42, 300 SKUs), computed from the same deterministic generator, so every example
 * sent to a fresh `demo` tenant addresses something that exists (inferred: the reference shows no example values).
 * Identifiers embed a hash of the org, so the examples address nothing in another tenant.
 */

/** The tenant the examples are written for: the org `npm start` prints tokens for. */
export const EXAMPLE_ORG = 'demo';

const world = generateWorld({ seed: DEFAULT_SEED, org: EXAMPLE_ORG, skus: DEFAULT_SKUS });
const manifest = world.manifest;
const tag = tenantTag(EXAMPLE_ORG);

/**
 * The n-th identifier of a kind that the mock creates at run time in a fresh tenant (`sub`, `ntf`): ids are
 * sequential per tenant and kind, `<kind>_<tenant tag>_<6 digits>`. spec/test/examples.test.ts proves the mock
 * hands out exactly these.
 */
function createdId(kind: string, n = 1): string {
  return `${kind}_${tag}_${String(n).padStart(6, '0')}`;
}

const sku = manifest.sku;

/** The example values, by what they name. */
export const DEMO = {
  /** An active SKU with inspections, stock in a lot and two units (the first SKU of the world). */
  skuReference: sku.reference,
  inspectionId: sku.inspectionIds[0] ?? '',
  locationReference: sku.locationReference,
  lotId: sku.lotId,
  baseUnitOfMeasureId: sku.baseUnitOfMeasureId,
  /** A family with no SKUs (deletable). */
  familyId: manifest.deletableFamilyId,
  /** A Confirmed purchase order line with nothing received (modifiable). */
  purchaseOrderId: manifest.purchaseOrderLine.purchaseOrderId,
  purchaseOrderLineId: manifest.purchaseOrderLine.lineId,
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
