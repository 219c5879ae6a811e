/**
 * The event catalog of the mock environment (Events). The 7 names the reference shows are `documented`;
 * every other name is implied by the families the reference lists (Events, point 1) and is the mock
 * environment's own (`inferred`): clients read names and versions from the events endpoints, never by hand.
 * Each version has a payload `data` schema: identifiers of what changed plus a few facts (Events, point 5:
 * a notification only announces a change; the receiver reads the current state with the API).
 */
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import type { Provenance } from '../provenance.js';
import { openObject } from '../schemas/open.js';

/** The families of the reference (Events, point 1). */
const EVENT_FAMILIES = ['Catalog', 'Warehouse', 'Planning', 'Production', 'Maintenance', 'Costs', 'People'] as const;
type EventFamily = (typeof EVENT_FAMILIES)[number];

/** One version of an event contract. */
export interface EventVersionDef {
  readonly version: number;
  readonly data: TObject;
  readonly deprecated: boolean;
}

/** One event name with its versions. */
interface EventDef {
  readonly eventName: string;
  readonly family: EventFamily;
  readonly description: string;
  readonly provenance: Provenance;
  readonly rationale?: string;
  readonly versions: readonly EventVersionDef[];
}

const id = (description: string) => Type.String({ minLength: 1, description });
const qty = (description: string) => Type.Number({ description });
const at = (description: string) => Type.String({ format: 'date-time', description });
/**
 * A payload `data` schema: its fields are required and typed, other members are accepted (Events, point 6: "Payload
 * shape of a delivered notification: not shown"), so a receiver built on the contract tolerates a server that adds some.
 */
const data = (props: TProperties) =>
  Type.Object(
    props,
    openObject(
      'Events, point 6: "Payload shape of a delivered notification: not shown".',
      'Members the contract does not name are accepted (a receiver ignores them).',
    ),
  );

const IMPLIED =
  "Implied by the event families of the reference (Events, point 1); the name and payload are this environment's own.";
const SHOWN_PAYLOAD =
  "The name is shown by the reference; its payload is not shown and is this environment's decision.";

function event(
  eventName: string,
  family: EventFamily,
  description: string,
  versions: TObject[],
  provenance: Provenance = 'inferred',
): EventDef {
  return {
    eventName,
    family,
    description,
    provenance,
    rationale: provenance === 'documented' ? SHOWN_PAYLOAD : IMPLIED,
    versions: versions.map((schema, index) => ({
      version: index + 1,
      data: schema,
      deprecated: index < versions.length - 1,
    })),
  };
}

const sku = { skuId: id('identifier of the SKU'), skuReference: id('reference of the SKU') };
const salesLine = {
  salesOrderId: id('sales order'),
  lineId: id('line'),
  skuReference: id('ordered SKU'),
  quantity: qty('confirmed quantity'),
};
const purchaseLine = {
  purchaseOrderId: id('purchase order'),
  lineId: id('line'),
  skuReference: id('ordered SKU'),
  quantity: qty('quantity'),
};

/** Every event of the mock environment, in family order. */
export const EVENT_CATALOG: readonly EventDef[] = [
  // Catalog: products, items, properties, variants
  event(
    'Items.Sku.Created',
    'Catalog',
    'A SKU was created.',
    [data({ ...sku }), data({ ...sku, name: Type.String(), familyId: Type.Union([Type.String(), Type.Null()]) })],
    'documented',
  ),
  event('Items.Sku.Updated', 'Catalog', 'A SKU changed (name, status, units).', [
    data({ ...sku, changedFields: Type.Array(Type.String()) }),
  ]),
  event('Items.Sku.Deleted', 'Catalog', 'A SKU was deleted.', [data({ ...sku })]),
  event('Items.Sku.InspectionUpdated', 'Catalog', 'An inspection definition of a SKU changed.', [
    data({ ...sku, inspectionId: id('inspection'), isMandatory: Type.Boolean() }),
  ]),
  event('Items.Family.Created', 'Catalog', 'A SKU family was created.', [
    data({ familyId: id('family'), code: Type.String() }),
  ]),
  event('Items.Family.Deleted', 'Catalog', 'A SKU family was deleted.', [
    data({ familyId: id('family'), code: Type.String() }),
  ]),
  event('Items.Property.Changed', 'Catalog', 'A catalog property definition changed.', [
    data({ propertyId: id('property'), name: Type.String() }),
  ]),
  event('Items.Variant.Created', 'Catalog', 'A product variant was created.', [
    data({ ...sku, variantOf: id('parent SKU reference') }),
  ]),
  // Warehouse: receipts, shipments, lots, locations, inventories, stock movements
  event(
    'Warehouse.Receipt.Received',
    'Warehouse',
    'A receipt was received into stock.',
    [
      data({
        receiptId: id('receipt'),
        purchaseOrderId: Type.Union([Type.String(), Type.Null()]),
        receivedAt: at('receipt time'),
      }),
    ],
    'documented',
  ),
  event(
    'Warehouse.Shipment.Shipped',
    'Warehouse',
    'A shipment left the warehouse.',
    [
      data({
        shipmentId: id('shipment'),
        salesOrderId: Type.Union([Type.String(), Type.Null()]),
        shippedAt: at('shipping time'),
      }),
    ],
    'documented',
  ),
  event('Warehouse.Lot.Created', 'Warehouse', 'A lot was created.', [data({ lotId: id('lot'), ...sku })]),
  event('Warehouse.Location.Created', 'Warehouse', 'A storage location was created.', [
    data({ locationReference: id('location') }),
  ]),
  event('Warehouse.Inventory.Counted', 'Warehouse', 'An inventory count was finished.', [
    data({ countId: id('count'), locationReference: id('location'), entries: Type.Integer({ minimum: 0 }) }),
  ]),
  event(
    'Warehouse.Stock.Updated',
    'Warehouse',
    'The stock level of a SKU at a location was set (emitted by PUT /v1/items/skus/{skuReference}/stock).',
    [
      data({ ...sku, locationReference: id('location'), stock: qty('new stock') }),
      data({
        ...sku,
        locationReference: id('location'),
        lotId: Type.Union([Type.String(), Type.Null()]),
        stock: qty('new stock'),
        previousStock: qty('stock before'),
        unitOfMeasureId: id('unit of stock'),
      }),
    ],
  ),
  event('Warehouse.StockMovement.Completed', 'Warehouse', 'A stock movement between locations was completed.', [
    data({
      movementId: id('movement'),
      ...sku,
      fromLocation: id('origin'),
      toLocation: id('destination'),
      quantity: qty('moved quantity'),
    }),
  ]),
  // Planning: sales orders, purchase orders, demand, supply, forecasts
  event(
    'Planning.SalesOrder.LineConfirmed',
    'Planning',
    'A sales order line was confirmed.',
    [data({ ...salesLine })],
    'documented',
  ),
  event(
    'Planning.PurchaseOrder.LineConfirmed',
    'Planning',
    'A purchase order line was confirmed.',
    [data({ ...purchaseLine })],
    'documented',
  ),
  event(
    'Planning.PurchaseOrder.LineUpdated',
    'Planning',
    'A purchase order line changed (emitted by PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}).',
    [data({ ...purchaseLine, changedFields: Type.Array(Type.String()) })],
  ),
  event('Planning.Demand.Changed', 'Planning', 'The demand of a SKU changed.', [
    data({ ...sku, quantity: qty('demanded quantity') }),
  ]),
  event('Planning.Supply.Changed', 'Planning', 'The planned supply of a SKU changed.', [
    data({ ...sku, quantity: qty('supplied quantity') }),
  ]),
  event('Planning.Forecast.Published', 'Planning', 'A forecast was published.', [
    data({ forecastId: id('forecast'), periodStart: at('first period'), periodEnd: at('last period') }),
  ]),
  // Production: requests, orders, operations, recipes, progress, pauses, completion
  event('Production.Request.Created', 'Production', 'A production request was created.', [
    data({ requestId: id('request'), ...sku, quantity: qty('requested quantity') }),
  ]),
  event('Production.Order.Created', 'Production', 'A production order was created.', [
    data({ orderId: id('order'), ...sku, quantity: qty('planned quantity') }),
  ]),
  event(
    'Production.Order.Finished',
    'Production',
    'A production order was finished.',
    [data({ orderId: id('order'), ...sku, producedQuantity: qty('produced quantity') })],
    'documented',
  ),
  event('Production.Operation.Started', 'Production', 'An operation of a production order started.', [
    data({ orderId: id('order'), operationId: id('operation') }),
  ]),
  event('Production.Operation.Paused', 'Production', 'An operation was paused.', [
    data({ orderId: id('order'), operationId: id('operation'), reason: Type.String() }),
  ]),
  event('Production.Operation.Finished', 'Production', 'An operation of a production order finished.', [
    data({ orderId: id('order'), operationId: id('operation') }),
  ]),
  event('Production.Progress.Recorded', 'Production', 'Progress was recorded on an operation.', [
    data({ orderId: id('order'), operationId: id('operation'), quantity: qty('quantity reported') }),
  ]),
  event('Production.Recipe.VersionActivated', 'Production', 'A recipe version became active.', [
    data({ recipeId: id('recipe'), version: Type.Integer({ minimum: 1 }) }),
  ]),
  // Maintenance: assets, work orders, consumption, time, completion
  event('Maintenance.Asset.Created', 'Maintenance', 'A maintenance asset was created.', [
    data({ assetId: id('asset'), code: Type.String() }),
  ]),
  event('Maintenance.WorkOrder.Created', 'Maintenance', 'A work order was created.', [
    data({ workOrderId: id('work order'), assetId: id('asset') }),
  ]),
  event(
    'Maintenance.WorkOrder.Completed',
    'Maintenance',
    'A work order was completed.',
    [data({ workOrderId: id('work order'), assetId: id('asset'), completedAt: at('completion time') })],
    'documented',
  ),
  event('Maintenance.Consumption.Recorded', 'Maintenance', 'Material consumption was recorded on a work order.', [
    data({ workOrderId: id('work order'), ...sku, quantity: qty('consumed quantity') }),
  ]),
  event('Maintenance.TimeEntry.Recorded', 'Maintenance', 'Time was recorded on a work order.', [
    data({ workOrderId: id('work order'), employeeId: id('employee'), minutes: Type.Integer({ minimum: 0 }) }),
  ]),
  // Costs and people: cost changes, employees, related tasks
  event('Costs.Sku.CostChanged', 'Costs', 'The computed cost of a SKU changed.', [
    data({ ...sku, previousCost: qty('cost before'), cost: qty('new cost') }),
  ]),
  event('People.Employee.Created', 'People', 'An employee was created.', [data({ employeeId: id('employee') })]),
  event('People.Employee.Updated', 'People', 'An employee changed.', [
    data({ employeeId: id('employee'), changedFields: Type.Array(Type.String()) }),
  ]),
  event('People.Task.Assigned', 'People', 'A task was assigned to an employee.', [
    data({ taskId: id('task'), employeeId: id('employee') }),
  ]),
];

const BY_NAME = new Map(EVENT_CATALOG.map((e) => [e.eventName, e]));

/** The catalog entry of an event name (exact match), or undefined. */
export function findEvent(eventName: string): EventDef | undefined {
  return BY_NAME.get(eventName);
}

/** The definition of one version of an event, or undefined when the name or version is not in the catalog. */
export function findEventVersion(eventName: string, version: number): EventVersionDef | undefined {
  return BY_NAME.get(eventName)?.versions.find((v) => v.version === version);
}

/** The newest version of an event. */
export function latestVersion(event: EventDef): EventVersionDef {
  const last = event.versions[event.versions.length - 1];
  if (!last) throw new Error(`event ${event.eventName} has no version`);
  return last;
}
