import { Type, type Static } from '@sinclair/typebox';
import { MAX_TEXT_LENGTH, TEXT_LENGTH_RATIONALE, inferredMaxLength } from '../limits.js';
import { inferred } from '../provenance.js';
import { AUDIT_RATIONALE, DateTime } from './common.js';
import { closedBody, openObject } from './open.js';

const LINE_RATIONALE =
  "PUT /v1/planning/purchaseOrders/{id}/lines/{lineId} appears only in error messages of the reference; the line shape is this kit's decision, following the PLANNING.PURCHASE_ORDER error codes (draft, received and cancelled lines, received quantity).";

/** Status of a purchase order line. */
const PurchaseOrderLineStatus = Type.Union(
  [
    Type.Literal('Draft'),
    Type.Literal('Confirmed'),
    Type.Literal('PartiallyReceived'),
    Type.Literal('Received'),
    Type.Literal('Cancelled'),
  ],
  { description: 'line status', ...inferred(LINE_RATIONALE) },
);

/** A purchase order line. */
export const PurchaseOrderLine = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the line', ...inferred(LINE_RATIONALE) }),
    purchaseOrderId: Type.String({
      minLength: 1,
      description: 'identifier of the purchase order',
      ...inferred(LINE_RATIONALE),
    }),
    lineNumber: Type.Integer({
      minimum: 1,
      description: 'position of the line in the order',
      ...inferred(LINE_RATIONALE),
    }),
    skuReference: Type.String({ description: 'reference of the ordered SKU', ...inferred(LINE_RATIONALE) }),
    quantity: Type.Number({ minimum: 0, description: 'ordered quantity', ...inferred(LINE_RATIONALE) }),
    receivedQuantity: Type.Number({ minimum: 0, description: 'quantity received so far', ...inferred(LINE_RATIONALE) }),
    unitPrice: Type.Number({ minimum: 0, description: 'price per unit', ...inferred(LINE_RATIONALE) }),
    expectedDate: Type.String({ format: 'date', description: 'expected delivery date', ...inferred(LINE_RATIONALE) }),
    status: PurchaseOrderLineStatus,
    comment: Type.Union([Type.String(), Type.Null()], { description: 'free text', ...inferred(LINE_RATIONALE) }),
    lastModifiedAt: DateTime('last modification time', inferred(AUDIT_RATIONALE)),
  },
  {
    ...openObject(
      'PUT /v1/planning/purchaseOrders/{id}/lines/{lineId} appears only in error messages ("Their details: not shown"); a real line has fields this kit does not know.',
    ),
    ...inferred(LINE_RATIONALE),
  },
);
export type PurchaseOrderLine = Static<typeof PurchaseOrderLine>;

/** Body of a purchase order line update: any of the modifiable fields, at least one. */
export const PurchaseOrderLineUpdateBody = Type.Object(
  {
    quantity: Type.Optional(
      Type.Number({
        minimum: 0,
        description: 'new ordered quantity (not less than the received quantity)',
        ...inferred(LINE_RATIONALE),
      }),
    ),
    unitPrice: Type.Optional(Type.Number({ minimum: 0, description: 'new unit price', ...inferred(LINE_RATIONALE) })),
    expectedDate: Type.Optional(
      Type.String({ format: 'date', description: 'new expected date', ...inferred(LINE_RATIONALE) }),
    ),
    comment: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_TEXT_LENGTH, TEXT_LENGTH_RATIONALE),
        description: 'free text',
        ...inferred(LINE_RATIONALE),
      }),
    ),
  },
  { minProperties: 1, ...closedBody(`${LINE_RATIONALE} A line update names at least one modifiable field.`) },
);
export type PurchaseOrderLineUpdateBody = Static<typeof PurchaseOrderLineUpdateBody>;
