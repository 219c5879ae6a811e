import type { InspectionUpdateBody, StockUpdateBody } from '../../spec/schemas/items.js';
import type { SkuRecord, StockEntry } from '../../fixtures/seed/model.js';
import type { Handler } from './context.js';
import { notFound, ok } from './context.js';
import { listAnswer } from './list-answer.js';
import type { DomainHandlers } from './types.js';

/** Decimal places of a number as written (1.25 -> 2). */
function decimalsOf(value: number): number {
  if (Number.isInteger(value)) return 0;
  const text = String(value);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Number(exp[1]) + (text.split('e')[0]?.split('.')[1]?.length ?? 0);
  return text.split('.')[1]?.length ?? 0;
}

/** Rounds to a number of decimals, removing binary noise from factor products. */
function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const scaled = value * f;
  // A huge value has no fractional part left to round; scaling it must not overflow to Infinity.
  return Number.isFinite(scaled) ? Math.round(scaled) / f : value;
}

/** `GET /v1/items/skus`. */
const listSkus: Handler = (ctx) => listAnswer(ctx, ctx.tenant.skus);

/**
 * `PUT /v1/items/skus/{skuReference}/stock` (Endpoints / Update SKU stock): sets the stock of the SKU at a
 * location and lot, in the given unit; answers 204 without a body (documented).
 */
const updateSkuStock: Handler = (ctx) => {
  const { tenant } = ctx;
  const reference = ctx.params.skuReference ?? '';
  const record = tenant.skuRecords.get(reference);
  // Inferred: the general rule "an addressed entity does not exist" gives 404 (the stock table omits 404).
  if (!record) return notFound(ctx, 'SKU', reference);
  const body = ctx.body as StockUpdateBody;
  if (!tenant.locations.has(body.locationReference)) return notFound(ctx, 'Location', body.locationReference);
  const lotId = body.lotId ?? null;
  if (lotId !== null) {
    const lot = tenant.lots.get(lotId);
    if (!lot || lot.skuId !== record.item.id) return notFound(ctx, 'Lot', lotId);
  }
  const unitId = body.stockUnitOfMeasureId ?? record.item.baseUnitOfMeasureId;
  const conversion = record.unitConversions.find((c) => c.unitOfMeasureId === unitId);
  if (!conversion) {
    return ctx.problem(
      'COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
      `Unit of measure '${unitId}' is not configured for SKU '${reference}'.`,
      {
        unitOfMeasureId: unitId,
        skuReference: reference,
      },
    );
  }
  const unit = tenant.unitsOfMeasure.get(unitId);
  const baseUnit = tenant.unitsOfMeasure.get(record.item.baseUnitOfMeasureId);
  const baseDecimals = baseUnit?.decimals ?? 6;
  if (unit && decimalsOf(body.stock) > unit.decimals) {
    return ctx.problem(
      'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
      `Stock ${body.stock} has more than ${unit.decimals} decimals allowed by unit '${unit.code}'.`,
      {
        unitOfMeasureId: unitId,
        decimals: unit.decimals,
      },
    );
  }
  const baseQuantity = roundTo(body.stock * conversion.factor, 9);
  if (!Number.isFinite(baseQuantity))
    return ctx.problem('COMMON.VALIDATION.ERROR', `Stock ${body.stock} is too large.`, { field: 'stock' });
  if (decimalsOf(baseQuantity) > baseDecimals) {
    return ctx.problem(
      'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
      `Stock converts to ${baseQuantity} in the base unit, which allows ${baseDecimals} decimals.`,
      {
        unitOfMeasureId: record.item.baseUnitOfMeasureId,
        decimals: baseDecimals,
      },
    );
  }

  const previous = record.stock.find((e) => e.locationReference === body.locationReference && e.lotId === lotId);
  const stock: StockEntry[] = record.stock.filter((e) => e !== previous);
  stock.push({ locationReference: body.locationReference, lotId, quantity: baseQuantity });
  const totalStock = roundTo(
    stock.reduce((sum, e) => sum + e.quantity, 0),
    baseDecimals,
  );
  // The total must stay a JSON number: Infinity would be serialised as null.
  if (!Number.isFinite(totalStock))
    return ctx.problem(
      'COMMON.VALIDATION.ERROR',
      `Stock ${body.stock} makes the total stock of SKU '${reference}' too large.`,
      { field: 'stock' },
    );
  const updated: SkuRecord = {
    ...record,
    stock,
    item: { ...record.item, totalStock, lastModifiedAt: tenant.nowIso() },
  };
  tenant.commit('sku', reference, updated, {
    eventName: 'Warehouse.Stock.Updated',
    data: {
      skuId: record.item.id,
      skuReference: reference,
      locationReference: body.locationReference,
      lotId,
      stock: baseQuantity,
      previousStock: previous?.quantity ?? 0,
      unitOfMeasureId: record.item.baseUnitOfMeasureId,
    },
  });
  return ok(204);
};

/** `PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}`: returns the updated definition. */
const updateSkuInspection: Handler = (ctx) => {
  const { tenant } = ctx;
  const reference = ctx.params.skuReference ?? '';
  const inspectionId = ctx.params.inspectionId ?? '';
  const record = tenant.skuRecords.get(reference);
  if (!record) return notFound(ctx, 'SKU', reference);
  const inspection = record.inspections.find((i) => i.id === inspectionId);
  if (!inspection) return notFound(ctx, 'Inspection', inspectionId);
  if (record.item.status === 'Inactive') {
    return ctx.problem('ITEMS.SKU.CANNOT_OPERATE_ON_DELETED', `SKU '${reference}' is inactive and cannot be changed.`, {
      skuReference: reference,
    });
  }
  const body = ctx.body as InspectionUpdateBody;
  const updatedInspection = { ...inspection, name: body.name, isMandatory: body.isMandatory };
  const updated: SkuRecord = {
    ...record,
    inspections: record.inspections.map((i) => (i.id === inspectionId ? updatedInspection : i)),
    item: { ...record.item, lastModifiedAt: tenant.nowIso() },
  };
  tenant.commit('sku', reference, updated, {
    eventName: 'Items.Sku.InspectionUpdated',
    data: { skuId: record.item.id, skuReference: reference, inspectionId, isMandatory: body.isMandatory },
  });
  return ok(200, updatedInspection);
};

/** `POST /v1/items/families/search`: the list parameters come in the body. */
const searchFamilies: Handler = (ctx) => listAnswer(ctx, ctx.tenant.families);

/**
 * `DELETE /v1/items/families/{id}`. Inferred: deleted families stay as tombstones, so a second delete gives
 * 409 ITEMS.FAMILY.ALREADY_DELETED and an id that never existed gives 404. SKUs of the family lose their family.
 */
const deleteFamily: Handler = (ctx) => {
  const { tenant } = ctx;
  const id = ctx.params.id ?? '';
  if (tenant.familyTombstones.has(id))
    return ctx.problem('ITEMS.FAMILY.ALREADY_DELETED', `Family '${id}' was already deleted.`, { id });
  const family = tenant.families.get(id);
  if (!family) return notFound(ctx, 'Family', id);
  const now = tenant.nowIso();
  // The list items tell which SKUs are in the family: only their records are built (seeded ones are built on request).
  for (const { reference, familyId } of tenant.skus.values()) {
    const record = familyId === id ? tenant.skuRecords.get(reference) : undefined;
    if (!record) continue;
    tenant.commit('sku', reference, { ...record, item: { ...record.item, familyId: null, lastModifiedAt: now } });
  }
  tenant.commit(
    'family',
    id,
    { family, deletedAt: now },
    { eventName: 'Items.Family.Deleted', data: { familyId: id, code: family.code } },
  );
  return ok(204);
};

/** Handlers of the Items domain by operationId. */
export const itemHandlers = {
  listSkus,
  updateSkuStock,
  updateSkuInspection,
  searchFamilies,
  deleteFamily,
} satisfies DomainHandlers;
