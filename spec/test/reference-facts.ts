/**
 * Facts of the API reference that the contract is compared against, held here as the project's own table
 * (the reference text itself is not part of the project).
 */

/** Endpoints: the 13 operations the reference describes. */
export const DESCRIBED_OPERATIONS = [
  'POST /v1/access/apiKeys',
  'GET /v1/notifications/webhook/subscriptions',
  'POST /v1/notifications/webhook/subscriptions',
  'DELETE /v1/notifications/webhook/subscriptions/{id}',
  'GET /v1/notifications/webhook',
  'GET /v1/notifications/webhook/{id}',
  'GET /v1/notifications/webhook/{id}/attempts',
  'POST /v1/notifications/webhook/{id}/retry',
  'GET /v1/notifications/events',
  'GET /v1/notifications/events/versions',
  'PUT /v1/items/skus/{skuReference}/stock',
  'PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}',
  'GET /v1/errors/{errorCode}',
] as const;

/** Endpoints that appear only in error messages of the reference. */
export const ERROR_MESSAGE_OPERATIONS = [
  'GET /v1/items/skus',
  'POST /v1/items/families/search',
  'DELETE /v1/items/families/{id}',
  'GET /v1/maintenance/assets',
  'GET /v1/admin/tenants/self',
  'PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}',
] as const;

/** Errors / Status and code pairs shown. */
export const DOCUMENTED_PAIRS = [
  { status: 400, code: 'COMMON.QUERY.FILTER_PARSING_FAILED' },
  { status: 401, code: null },
  { status: 403, code: 'COMMON.AUTH.MISSING_PERMISSIONS' },
  { status: 404, code: 'COMMON.ENTITY.NOT_FOUND' },
  { status: 422, code: 'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE' },
  { status: 429, code: 'COMMON.RATE_LIMIT.EXCEEDED' },
] as const;

/** Errors / Problem body: the five fields always present, plus `code` and `parameters`. */
export const PROBLEM_FIELDS = ['type', 'title', 'status', 'detail', 'instance'] as const;
export const PROBLEM_OPTIONAL_FIELDS = ['code', 'parameters'] as const;

/** Resources / Page of results. */
export const PAGE_FIELDS = ['results', 'pageNumber', 'pageSize', 'totalPages', 'totalCount'] as const;

/** Authentication, point 4: documented permissions per operation. */
export const DOCUMENTED_PERMISSIONS: Record<string, string> = {
  'POST /v1/access/apiKeys': 'App.Admin',
  'GET /v1/notifications/webhook/subscriptions': 'App.Admin',
  'POST /v1/notifications/webhook/subscriptions': 'App.Admin',
  'DELETE /v1/notifications/webhook/subscriptions/{id}': 'App.Admin',
  'PUT /v1/items/skus/{skuReference}/stock': 'Warehouse.Counts.Write',
  'PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}': 'Warehouse.Skus.Write',
};

/** Error statuses shown per operation (Endpoints tables). */
export const DOCUMENTED_ERROR_STATUSES: Record<string, number[]> = {
  'POST /v1/access/apiKeys': [401, 403, 429],
  'PUT /v1/items/skus/{skuReference}/stock': [400, 401, 403, 422, 429],
  'PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}': [400, 401, 403, 404, 422, 429],
  'GET /v1/errors/{errorCode}': [404],
};

/** Events, point 2: the event names shown. */
export const SHOWN_EVENT_NAMES = [
  'Items.Sku.Created',
  'Planning.SalesOrder.LineConfirmed',
  'Planning.PurchaseOrder.LineConfirmed',
  'Warehouse.Receipt.Received',
  'Warehouse.Shipment.Shipped',
  'Production.Order.Finished',
  'Maintenance.WorkOrder.Completed',
] as const;

/** Errors / Error code catalog: counts. */
export const ERROR_CODE_COUNT = 478;
export const ERROR_PREFIX_COUNT = 74;

/** Endpoints: the success statuses the reference gives ("Response (200)"); every other one is "not shown". */
export const SUCCESS_STATUSES_SHOWN: Record<string, number> = {
  'GET /v1/errors/{errorCode}': 200,
};

/** Endpoints: the success bodies the reference gives, by component (`null`: "no content (no response body)"). */
export const SUCCESS_BODIES_SHOWN: Record<string, string | null> = {
  'POST /v1/access/apiKeys': 'ApiKey',
  'PUT /v1/items/skus/{skuReference}/stock': null,
  'PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}': 'InspectionDefinition',
  'GET /v1/errors/{errorCode}': 'ErrorCatalogEntry',
};

/** Errors / Status and code pairs shown: the 422 pair, which belongs to the purchase order line update. */
export const PAIR_OPERATIONS: Record<string, number[]> = {
  'PUT /v1/planning/purchaseOrders/{id}/lines/{lineId}': [422],
};
