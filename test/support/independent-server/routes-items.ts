import { PERMISSIONS } from './auth.js';
import { EMITTED } from './events.js';
import { isRecord, readJsonBody, requireObject, sendEmpty, sendJson } from './http-io.js';
import { type ListParams, pageOf, paramsFromQuery } from './listing.js';
import { ApiProblem } from './problems.js';
import type { RequestContext, Route } from './router.js';
import { FAMILY_LIST, familyView, SKU_LIST, skuView } from './views.js';
import type { Sku } from './world.js';

/** SKUs, families, stock and inspections (Endpoints: Update SKU stock, Update a SKU inspection definition). */

function skuOf(ctx: RequestContext): Sku {
  const reference = ctx.params.skuReference ?? '';
  const sku = ctx.tenant.world.skus.find((s) => s.reference === reference);
  if (!sku) throw ApiProblem.notFound('SKU', reference);
  return sku;
}

/** An optional string field: absent or null passes, any other non-string is a validation error. */
function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw ApiProblem.validation(`${name} must be a string`);
  return value;
}

function requiredString(body: Record<string, unknown>, name: string): string {
  const value = optionalString(body, name);
  if (value === undefined || value.trim() === '') throw ApiProblem.validation(`${name} is required`);
  return value;
}

const listSkus: Route = {
  method: 'GET',
  pattern: '/v1/items/skus',
  handle(ctx) {
    const world = ctx.tenant.world;
    const views = world.skus.map((sku) => skuView(world, sku));
    sendJson(ctx.res, 200, pageOf(views, SKU_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

/** Search takes the list parameters in its JSON body; a parameter missing there may come from the query string. */
const searchFamilies: Route = {
  method: 'POST',
  pattern: '/v1/items/families/search',
  async handle(ctx) {
    const body = await readJsonBody(ctx.req);
    if (body !== undefined && !isRecord(body)) throw ApiProblem.validation('the search body must be a JSON object');
    const fromQuery = paramsFromQuery(ctx.query);
    const fromBody: ListParams = body ?? {};
    const params: ListParams = {
      pageNumber: fromBody.pageNumber ?? fromQuery.pageNumber,
      pageSize: fromBody.pageSize ?? fromQuery.pageSize,
      filterBy: fromBody.filterBy ?? fromQuery.filterBy,
      sortBy: fromBody.sortBy ?? fromQuery.sortBy,
    };
    const views = ctx.tenant.world.families.filter((f) => !f.deleted).map(familyView);
    sendJson(ctx.res, 200, pageOf(views, FAMILY_LIST, params, ctx.faults));
  },
};

const deleteFamily: Route = {
  method: 'DELETE',
  pattern: '/v1/items/families/{id}',
  permission: PERMISSIONS.familyWrite,
  handle(ctx) {
    const id = ctx.params.id ?? '';
    const world = ctx.tenant.world;
    const family = world.families.find((f) => f.id === id);
    if (!family) throw ApiProblem.notFound('family', id);
    if (family.deleted)
      throw ApiProblem.coded('ITEMS.FAMILY.ALREADY_DELETED', `family '${id}' was already deleted`, { id });
    if (world.skus.some((s) => s.familyCode === family.code))
      throw ApiProblem.validation(`family '${id}' still has SKUs and cannot be deleted`);
    family.deleted = true;
    family.lastModifiedAt = new Date().toISOString();
    ctx.deliverer.emit(ctx.tenant, EMITTED.familyRemoved.eventName, EMITTED.familyRemoved.eventVersion, {
      id: family.id,
      code: family.code,
    });
    sendEmpty(ctx.res, 204);
  },
};

/** Update SKU stock: body locationReference, stock, lotId, comment, stockUnitOfMeasureId; success without body. */
const updateStock: Route = {
  method: 'PUT',
  pattern: '/v1/items/skus/{skuReference}/stock',
  permission: PERMISSIONS.stockWrite,
  async handle(ctx) {
    const sku = skuOf(ctx);
    const body = requireObject(await readJsonBody(ctx.req), 'stock update');
    const stock = body.stock;
    if (typeof stock !== 'number' || !Number.isFinite(stock)) throw ApiProblem.validation('stock must be a number');
    if (stock < 0) throw ApiProblem.validation('stock cannot be negative');
    const locationReference = requiredString(body, 'locationReference');
    const lotId = optionalString(body, 'lotId');
    const comment = optionalString(body, 'comment') ?? '';
    const unitId = optionalString(body, 'stockUnitOfMeasureId') ?? sku.baseUnitId;
    if (comment.length > 2000) throw ApiProblem.validation('comment is longer than 2000 characters');
    if (!ctx.tenant.world.locations.includes(locationReference))
      throw ApiProblem.validation(`no location '${locationReference}'`);
    if (lotId !== undefined && !sku.lotIds.includes(lotId))
      throw ApiProblem.validation(`lot '${lotId}' does not belong to ${sku.reference}`);
    if (!sku.unitIds.includes(unitId))
      throw ApiProblem.coded(
        'COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
        `unit of measure '${unitId}' is not configured for ${sku.reference}`,
        { unitOfMeasureId: unitId },
      );
    const lot = lotId ?? sku.lotIds[0]!;
    let row = sku.stock.find((r) => r.locationReference === locationReference && r.lotId === lot);
    if (!row) {
      row = { locationReference, lotId: lot, quantity: 0, unitOfMeasureId: unitId, comment: '' };
      sku.stock.push(row);
    }
    Object.assign(row, { quantity: stock, unitOfMeasureId: unitId, comment });
    sku.lastModifiedAt = new Date().toISOString();
    const resource = {
      reference: sku.reference,
      locationReference,
      lotId: lot,
      stock,
      stockUnitOfMeasureId: unitId,
    };
    ctx.deliverer.emit(ctx.tenant, EMITTED.stockChanged.eventName, EMITTED.stockChanged.eventVersion, resource);
    if (ctx.faults.has('stock-update-200-body')) sendJson(ctx.res, 200, resource);
    else sendEmpty(ctx.res, 204);
  },
};

/** Update a SKU inspection definition: body `{ name, isMandatory }`, answer the definition. */
const updateInspection: Route = {
  method: 'PUT',
  pattern: '/v1/items/skus/{skuReference}/inspections/{inspectionId}',
  permission: PERMISSIONS.inspectionWrite,
  async handle(ctx) {
    const sku = skuOf(ctx);
    const inspectionId = ctx.params.inspectionId ?? '';
    const inspection = sku.inspections.find((i) => i.id === inspectionId);
    if (!inspection) throw ApiProblem.notFound('inspection', inspectionId);
    const body = requireObject(await readJsonBody(ctx.req), 'inspection update');
    const name = requiredString(body, 'name');
    if (name.length > 200) throw ApiProblem.validation('name is longer than 200 characters');
    if (typeof body.isMandatory !== 'boolean') throw ApiProblem.validation('isMandatory must be true or false');
    inspection.name = name;
    inspection.isMandatory = body.isMandatory;
    sku.lastModifiedAt = new Date().toISOString();
    ctx.deliverer.emit(ctx.tenant, EMITTED.inspectionChanged.eventName, EMITTED.inspectionChanged.eventVersion, {
      reference: sku.reference,
      inspectionId: inspection.id,
    });
    sendJson(ctx.res, 200, {
      id: inspection.id,
      name: inspection.name,
      type: inspection.type,
      isMandatory: inspection.isMandatory,
    });
  },
};

export const ITEM_ROUTES: readonly Route[] = [listSkus, searchFamilies, deleteFamily, updateStock, updateInspection];
