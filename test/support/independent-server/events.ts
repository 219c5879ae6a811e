/**
 * Events of this environment (Events 2: the seven names shown, at version 1, plus names of this server's own; the
 * complete list is "obtained from the events endpoints").
 */
interface EventDescriptor {
  eventName: string;
  eventVersion: number;
  summary: string;
}

/** Events emitted by this server's writes (Events 6: "which operation emits which event: not shown"). */
export const EMITTED = {
  stockChanged: { eventName: 'Warehouse.StockLevel.Changed', eventVersion: 2 },
  inspectionChanged: { eventName: 'Items.SkuInspection.Changed', eventVersion: 1 },
  familyRemoved: { eventName: 'Items.Family.Removed', eventVersion: 1 },
  purchaseOrderLineChanged: { eventName: 'Planning.PurchaseOrderLine.Changed', eventVersion: 1 },
} as const;

export const EVENTS: readonly EventDescriptor[] = [
  { eventName: 'Items.Sku.Created', eventVersion: 1, summary: 'A SKU was added to the catalog.' },
  { eventName: 'Planning.SalesOrder.LineConfirmed', eventVersion: 1, summary: 'A sales order line was confirmed.' },
  {
    eventName: 'Planning.PurchaseOrder.LineConfirmed',
    eventVersion: 1,
    summary: 'A purchase order line was confirmed.',
  },
  { eventName: 'Warehouse.Receipt.Received', eventVersion: 1, summary: 'Goods of a receipt were taken in.' },
  { eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1, summary: 'A shipment left the warehouse.' },
  { eventName: 'Production.Order.Finished', eventVersion: 1, summary: 'A production order was finished.' },
  { eventName: 'Maintenance.WorkOrder.Completed', eventVersion: 1, summary: 'A maintenance work order was closed.' },
  {
    ...EMITTED.stockChanged,
    summary: 'The counted stock of a SKU at a location and lot was set.',
  },
  { ...EMITTED.inspectionChanged, summary: 'An inspection definition of a SKU was edited.' },
  { ...EMITTED.familyRemoved, summary: 'A family of SKUs was deleted.' },
  { ...EMITTED.purchaseOrderLineChanged, summary: 'A purchase order line was edited.' },
];

export function findEvent(name: string, version: number): EventDescriptor | undefined {
  return EVENTS.find((e) => e.eventName === name && e.eventVersion === version);
}
