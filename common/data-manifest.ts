import { Type, type Static } from '@sinclair/typebox';
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value';

const Id = (description: string) => Type.String({ minLength: 1, description });

/**
 * Every object is closed (inferred): a `--data` file is written by hand, and a misspelt key (`lotID`) must be refused,
 * not silently leave a check without its data. The mock sends exactly these keys.
 */
const CLOSED = { additionalProperties: false } as const;

/** A purchase order line, addressed by its order and line ids. */
export const PurchaseOrderLineRef = Type.Object(
  {
    purchaseOrderId: Id('identifier of the purchase order'),
    lineId: Id('identifier of the line'),
  },
  CLOSED,
);
export type PurchaseOrderLineRef = Static<typeof PurchaseOrderLineRef>;

/**
 * Sample records of a tenant, each keeping the promise of its comment: the answer of the mock's
 * `GET /__mock/fixtures` and the format of the conformance runner's `--data` file (disposable entities of a real
 * deployment). One schema for both, so the runner never reads the seed generator's internals.
 */
export const DataManifest = Type.Object(
  {
    orgCode: Id('organisation code of the tenant'),
    /** An Active SKU with at least one inspection, stock in a lot, and more than one allowed unit. */
    sku: Type.Object(
      {
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
      },
      CLOSED,
    ),
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
  },
  CLOSED,
);
export type DataManifest = Static<typeof DataManifest>;

/** A `--data` file: any subset of the manifest (the checks that need a missing entry are skipped with that reason). */
export const PartialDataManifest = Type.Partial(DataManifest);
export type PartialDataManifest = Static<typeof PartialDataManifest>;

/** How a value misses the manifest, as one short phrase per path (`required`, `unknown key`, `expected string`). */
function problemText(error: ValueError): string {
  if (error.type === ValueErrorType.ObjectRequiredProperty) return 'required';
  if (error.type === ValueErrorType.ObjectAdditionalProperties) return 'unknown key';
  if (error.type === ValueErrorType.StringMinLength) return 'expected a non-empty string';
  return error.message.charAt(0).toLowerCase() + error.message.slice(1);
}

/**
 * Every way a value misses the partial manifest, one per path, the unknown keys last: `/sku/lotId: expected string`,
 * `/cancelledPurchaseOrderLine/lineId: required`, `/foo: unknown key` (a missing field is also reported as not a
 * string at the same path: the first phrase of a path is kept).
 */
function dataManifestProblems(value: unknown): string[] {
  const byPath = new Map<string, string>();
  const unknown: string[] = [];
  for (const error of Value.Errors(PartialDataManifest, value)) {
    const path = error.path || '/';
    const text = problemText(error);
    if (text === 'unknown key') unknown.push(`${path}: ${text}`);
    else if (!byPath.has(path)) byPath.set(path, text);
  }
  return [...[...byPath].map(([path, text]) => `${path}: ${text}`), ...unknown];
}

/**
 * Reads a value as a partial manifest: the value, or every problem with the path it concerns (joined by "; ").
 * `unknownKeys: 'drop'` removes keys the manifest does not name first (a mock of another version may send more).
 */
export function parsePartialDataManifest(
  value: unknown,
  options: { unknownKeys?: 'refuse' | 'drop' } = {},
): { ok: true; value: PartialDataManifest } | { ok: false; error: string; problems: string[] } {
  const input = options.unknownKeys === 'drop' ? Value.Clean(PartialDataManifest, structuredClone(value)) : value;
  if (Value.Check(PartialDataManifest, input)) return { ok: true, value: input };
  const problems = dataManifestProblems(input);
  return { ok: false, error: problems.length ? problems.join('; ') : 'not a manifest', problems };
}
