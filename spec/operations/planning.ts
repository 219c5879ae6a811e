import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, bodyBadRequest, forbidden, notFound } from './standard-errors.js';
import { idParam, pathString } from './common-params.js';
import { DEMO } from '../examples/demo.js';

/** `PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}` (named in the reference's error messages only). */
export const updatePurchaseOrderLine: OperationDef = {
  operationId: 'updatePurchaseOrderLine',
  method: 'put',
  path: '/v1/planning/purchaseOrders/{id}/lines/{lineId}',
  tag: 'Planning',
  summary: 'Update a purchase order line',
  description:
    'Changes the quantity, unit price, expected date or comment of a purchase order line and returns the line. A cancelled line cannot be modified (422 PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE). Emits `Planning.PurchaseOrder.LineUpdated`.',
  ...INF(
    "This operation appears only in error messages of the reference; its shape is this kit's decision, except the documented 422 for a cancelled line.",
  ),
  permission: { name: 'Planning.PurchaseOrders.Write', ...INF('Not shown; `Domain.Resource.Access` shape.') },
  apiKey: INF('Accepted on every operation (the reference names list requests only).'),
  pathParams: [
    idParam('purchase order', DEMO.purchaseOrderId),
    {
      name: 'lineId',
      description: 'identifier of the line',
      schema: pathString(),
      example: DEMO.purchaseOrderLineId,
    },
  ],
  requestBody: {
    schema: 'PurchaseOrderLineUpdateBody',
    description: 'the fields to change (at least one)',
    example: {
      quantity: 120,
      unitPrice: 4.75,
      expectedDate: '2026-02-16',
      comment: 'Supplier confirmed the new date.',
    },
    ...INF('The body is not shown.'),
  },
  success: {
    status: 200,
    schema: 'PurchaseOrderLine',
    description: 'The updated line.',
    ...INF('200 with the updated line.'),
  },
  errors: [
    bodyBadRequest(),
    UNAUTHORIZED,
    forbidden(false),
    notFound(undefined, 'The purchase order or the line'),
    {
      status: 422,
      codes: [
        'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
        'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE',
        'PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED',
      ],
      description:
        'A cancelled line is modified (documented); a received line is modified, or the quantity drops below the received quantity (inferred).',
      ...DOC('errors.pair.422'),
    },
    RATE_LIMITED,
  ],
};
