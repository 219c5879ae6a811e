import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

const Id = (description: string) => Type.String({ minLength: 1, description });

/** A purchase order line, addressed by its order and line ids. */
export const PurchaseOrderLineRef = Type.Object({
  purchaseOrderId: Id('identifier of the purchase order'),
  lineId: Id('identifier of the line'),
});
export type PurchaseOrderLineRef = Static<typeof PurchaseOrderLineRef>;

/**
 * Sample records of a tenant, each keeping the promise of its comment: the answer of the mock's
 * `GET /__mock/fixtures` and the format of the conformance runner's `--data` file (disposable entities of a real
 * deployment). One schema for both, so the runner never reads the seed generator's internals.
 */
export const DataManifest = Type.Object({
  orgCode: Id('organisation code of the tenant'),
  /** An Active SKU with at least one inspection, stock in a lot, and more than one allowed unit. */
  sku: Type.Object({
    reference: Id('reference of the SKU'),
    /** Identifiers of all inspection definitions of the SKU. */
    inspectionIds: Type.Array(Type.String({ minLength: 1 }), { description: 'inspection definitions of the SKU' }),
    baseUnitOfMeasureId: Id('base unit of the SKU'),
    /** An allowed unit of the SKU other than its base unit. */
    alternativeUnitOfMeasureId: Id('an allowed unit other than the base unit'),
    /** A location where the SKU has stock in `lotId`. */
    locationReference: Id('a location holding stock of the SKU in lotId'),
    /** A lot of the SKU. */
    lotId: Id('a lot of the SKU'),
  }),
  /** A unit of measure of the tenant that is not configured for `sku`. */
  unknownUnitOfMeasureId: Id('a unit of measure not configured for the SKU'),
  /** A family with no SKUs. */
  deletableFamilyId: Id('a family with no SKUs'),
  /** A Confirmed line with nothing received yet (modifiable). */
  purchaseOrderLine: PurchaseOrderLineRef,
  /** A Cancelled line. */
  cancelledPurchaseOrderLine: PurchaseOrderLineRef,
  /** A Received line. */
  receivedPurchaseOrderLine: PurchaseOrderLineRef,
});
export type DataManifest = Static<typeof DataManifest>;

/** A `--data` file: any subset of the manifest (the checks that need a missing entry are skipped with that reason). */
export const PartialDataManifest = Type.Partial(DataManifest);
export type PartialDataManifest = Static<typeof PartialDataManifest>;

/** Reads a value as a partial manifest: the value, or the first problem with the path it concerns. */
export function parsePartialDataManifest(
  value: unknown,
): { ok: true; value: PartialDataManifest } | { ok: false; error: string } {
  if (Value.Check(PartialDataManifest, value)) return { ok: true, value };
  const first = Value.Errors(PartialDataManifest, value).First();
  return { ok: false, error: first ? `${first.path || '/'}: ${first.message}` : 'not a manifest' };
}
