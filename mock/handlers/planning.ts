import type { PurchaseOrderLineUpdateBody } from '../../spec/schemas/planning.js';
import type { Handler, HandlerContext } from './context.js';
import type { ProblemAnswer } from '../problems.js';
import { notFound, ok } from './context.js';
import { lineKey } from '../store/tenant-state.js';
import type { DomainHandlers } from './types.js';

/**
 * The documented rule of `PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}`: a cancelled line gives 422
 * PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE (Errors / Status and code pairs). Null when the rule does
 * not refuse (a line that does not exist is the 404 of the update itself).
 */
function cancelledLineRefusal(ctx: HandlerContext): ProblemAnswer | null {
  const purchaseOrderId = ctx.params.id ?? '';
  const lineId = ctx.params.lineId ?? '';
  if (ctx.tenant.purchaseOrderLines.get(lineKey(purchaseOrderId, lineId))?.status !== 'Cancelled') return null;
  return ctx.problem(
    'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
    `Line '${lineId}' of purchase order '${purchaseOrderId}' is cancelled and cannot be modified.`,
    { purchaseOrderId, lineId },
  );
}

/**
 * The update of a purchase order line by every rule but the cancelled-line one: 404 for a line that does not
 * exist; a received line and a quantity below the received quantity are refused (inferred from the catalog).
 * Exported apart from that rule so that the planted-fault layer (mock/faults) can answer without it.
 */
export const modifyPurchaseOrderLine: Handler = (ctx) => {
  const { tenant } = ctx;
  const purchaseOrderId = ctx.params.id ?? '';
  const lineId = ctx.params.lineId ?? '';
  const key = lineKey(purchaseOrderId, lineId);
  const line = tenant.purchaseOrderLines.get(key);
  if (!line) return notFound(ctx, 'PurchaseOrderLine', `${purchaseOrderId}/${lineId}`);
  const parameters = { purchaseOrderId, lineId };
  if (line.status === 'Received') {
    return ctx.problem(
      'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE',
      `Line '${lineId}' of purchase order '${purchaseOrderId}' is fully received and cannot be modified.`,
      parameters,
    );
  }
  const body = ctx.body as PurchaseOrderLineUpdateBody;
  if (body.quantity !== undefined && body.quantity < line.receivedQuantity) {
    return ctx.problem(
      'PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED',
      `Quantity ${body.quantity} is less than the received quantity ${line.receivedQuantity}.`,
      {
        ...parameters,
        receivedQuantity: line.receivedQuantity,
      },
    );
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

/** `PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}`: the cancelled-line rule first, then the update. */
const updatePurchaseOrderLine: Handler = (ctx) => cancelledLineRefusal(ctx) ?? modifyPurchaseOrderLine(ctx);

export const planningHandlers = { updatePurchaseOrderLine } satisfies DomainHandlers;
