import { randomBytes } from 'node:crypto';
import { PERMISSIONS } from './auth.js';
import { catalogEntry, inventedEntry } from './catalog.js';
import { EMITTED } from './events.js';
import { readJsonBody, requireObject, sendJson } from './http-io.js';
import { pageOf, paramsFromQuery } from './listing.js';
import { ApiProblem } from './problems.js';
import type { Route } from './router.js';
import { MAX_API_KEYS, nextId } from './tenants.js';
import { ASSET_LIST, assetView } from './views.js';

/** Keys, the error catalog, assets, the tenant and purchase order lines. */

/** Create an API key: body `{ name }`, answer `id`, `key`, `name`, `orgCode`, `isActive` (200 is this server's choice). */
const createApiKey: Route = {
  method: 'POST',
  pattern: '/v1/access/apiKeys',
  permission: PERMISSIONS.admin,
  async handle(ctx) {
    const body = requireObject(await readJsonBody(ctx.req), 'API key');
    const name = body.name;
    if (typeof name !== 'string' || name.trim() === '') throw ApiProblem.validation('name must be a non-empty string');
    if (name.length > 200) throw ApiProblem.validation('name is longer than 200 characters');
    const tenant = ctx.tenant;
    if (tenant.apiKeys.size >= MAX_API_KEYS)
      throw ApiProblem.coded(
        'COMMON.TENANT.PLAN_LIMIT_EXCEEDED',
        `an organisation keeps at most ${MAX_API_KEYS} keys`,
        {
          limit: MAX_API_KEYS,
        },
      );
    const record = {
      id: nextId(tenant, 'key'),
      key: `opk_${randomBytes(24).toString('base64url')}`,
      name,
      isActive: true,
    };
    tenant.apiKeys.set(record.id, record);
    ctx.keyOwners.set(record.key, tenant.org);
    sendJson(ctx.res, 200, { id: record.id, key: record.key, name, orgCode: tenant.org, isActive: true });
  },
};

/** Get an error from the catalog: 200 with the entry, 404 COMMON.ENTITY.NOT_FOUND outside the catalog. */
const getError: Route = {
  method: 'GET',
  pattern: '/v1/errors/{errorCode}',
  handle(ctx) {
    const code = ctx.params.errorCode ?? '';
    const entry = catalogEntry(code);
    if (entry) return sendJson(ctx.res, 200, entry);
    if (ctx.faults.has('unknown-error-code-200')) return sendJson(ctx.res, 200, inventedEntry(code));
    throw ApiProblem.notFound('error code', code);
  },
};

const listAssets: Route = {
  method: 'GET',
  pattern: '/v1/maintenance/assets',
  handle(ctx) {
    const views = ctx.tenant.world.assets.map(assetView);
    sendJson(ctx.res, 200, pageOf(views, ASSET_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

const tenantSelf: Route = {
  method: 'GET',
  pattern: '/v1/admin/tenants/self',
  handle(ctx) {
    const org = ctx.tenant.org;
    sendJson(ctx.res, 200, { orgCode: org, displayName: org.charAt(0).toUpperCase() + org.slice(1), plan: 'Standard' });
  },
};

/**
 * Modify a purchase order line (`{ quantity?, comment? }`): a cancelled line gives the documented 422
 * PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE; a received one 409 CANNOT_MODIFY_RECEIVED_LINE (a choice).
 */
const updatePurchaseOrderLine: Route = {
  method: 'PUT',
  pattern: '/v1/planning/purchaseOrders/{id}/lines/{lineId}',
  permission: PERMISSIONS.purchaseOrderWrite,
  async handle(ctx) {
    const orderId = ctx.params.id ?? '';
    const lineId = ctx.params.lineId ?? '';
    const order = ctx.tenant.world.purchaseOrders.find((o) => o.id === orderId);
    if (!order) throw ApiProblem.notFound('purchase order', orderId);
    const line = order.lines.find((l) => l.id === lineId);
    if (!line) throw ApiProblem.notFound('purchase order line', lineId);
    if (line.status === 'Cancelled' && !ctx.faults.has('cancelled-line-modifiable'))
      throw ApiProblem.coded(
        'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
        `line ${line.lineNumber} of ${order.code} is cancelled`,
        { purchaseOrderId: orderId, lineId },
      );
    if (line.status === 'Received')
      throw ApiProblem.coded(
        'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE',
        `line ${line.lineNumber} of ${order.code} is already received`,
        { purchaseOrderId: orderId, lineId },
      );
    const body = requireObject(await readJsonBody(ctx.req), 'purchase order line');
    const { quantity, comment } = body;
    if (quantity !== undefined && (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0))
      throw ApiProblem.validation('quantity must be a positive number');
    if (comment !== undefined && (typeof comment !== 'string' || comment.length > 2000))
      throw ApiProblem.validation('comment must be a string of at most 2000 characters');
    if (typeof quantity === 'number') line.quantity = quantity;
    if (typeof comment === 'string') line.comment = comment;
    line.lastModifiedAt = new Date().toISOString();
    const view = {
      id: line.id,
      purchaseOrderId: order.id,
      lineNumber: line.lineNumber,
      skuReference: line.skuReference,
      quantity: line.quantity,
      receivedQuantity: line.receivedQuantity,
      unitOfMeasureId: line.unitOfMeasureId,
      status: line.status,
      comment: line.comment,
      LastModifiedAt: line.lastModifiedAt,
    };
    const emitted = EMITTED.purchaseOrderLineChanged;
    ctx.deliverer.emit(ctx.tenant, emitted.eventName, emitted.eventVersion, { purchaseOrderId: order.id, lineId });
    sendJson(ctx.res, 200, view);
  },
};

export const OTHER_ROUTES: readonly Route[] = [createApiKey, getError, listAssets, tenantSelf, updatePurchaseOrderLine];
