import type { PurchaseOrderLineUpdateBody } from '../../spec/schemas/planning.js';
import type { Handler } from '../http/context.js';
import { notFound, ok } from '../http/context.js';
import { lineKey } from '../store/tenant-state.js';

/**
 * `PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}`. A cancelled line gives 422
 * PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE (Errors / Status and code pairs, documented);
 * a received line and a quantity below the received quantity are refused too (inferred from the catalog).
 */
export const updatePurchaseOrderLine: Handler = (ctx) => {
  const { tenant } = ctx;
  const purchaseOrderId = ctx.params.id ?? '';
  const lineId = ctx.params.lineId ?? '';
  const key = lineKey(purchaseOrderId, lineId);
  const line = tenant.purchaseOrderLines.get(key);
  if (!line) return notFound(ctx, 'PurchaseOrderLine', `${purchaseOrderId}/${lineId}`);
  const parameters = { purchaseOrderId, lineId };
  if (line.status === 'Cancelled' && !ctx.faults.has('cancelled-line-modifiable')) {
    return ctx.problem('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE', `Line '${lineId}' of purchase order '${purchaseOrderId}' is cancelled and cannot be modified.`, parameters);
  }
  if (line.status === 'Received') {
    return ctx.problem('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE', `Line '${lineId}' of purchase order '${purchaseOrderId}' is fully received and cannot be modified.`, parameters);
  }
  const body = ctx.body as PurchaseOrderLineUpdateBody;
  if (body.quantity !== undefined && body.quantity < line.receivedQuantity) {
    return ctx.problem('PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED', `Quantity ${body.quantity} is less than the received quantity ${line.receivedQuantity}.`, {
      ...parameters,
      receivedQuantity: line.receivedQuantity,
    });
  }
  const changedFields = Object.keys(body);
  const updated = {
    ...line,
    ...(body.quantity !== undefined ? { quantity: body.quantity } : {}),
    ...(body.unitPrice !== undefined ? { unitPrice: body.unitPrice } : {}),
    ...(body.expectedDate !== undefined ? { expectedDate: body.expectedDate } : {}),
    ...(body.comment !== undefined ? { comment: body.comment } : {}),
    lastModifiedAt: tenant.nowIso(),
  };
  tenant.commit('purchaseOrderLine', key, updated, {
    eventName: 'Planning.PurchaseOrder.LineUpdated',
    data: { purchaseOrderId, lineId, skuReference: line.skuReference, quantity: updated.quantity, changedFields },
  });
  return ok(200, updated);
};

export const planningHandlers: Record<string, Handler> = { updatePurchaseOrderLine };
