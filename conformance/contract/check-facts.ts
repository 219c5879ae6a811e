import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import { at, escapeToken, type Fact } from './facts.js';

/**
 * The facts of the contract each check rests on (nodes of the document, `facts.ts`): the check's level is derived
 * from their provenance by the registry. Where a check judges a documented fact beside an inferred one, it is split
 * in two checks (the inferred twin ends in `.inferred` or names the contract's decision), so no MUST folds in a guess.
 */

const op = (o: OperationDef) => at.operation(o.path, o.method);
const opById = (id: string): OperationDef => {
  const found = OPERATIONS.find((o) => o.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found;
};
const response = (id: string, status: number | string) => {
  const o = opById(id);
  return at.response(o.path, o.method, status);
};
const permissionOf = (o: OperationDef) => at.permission(o.path, o.method);

/** The status mark of a catalog code (`x-status-provenance`): documented for the pairs the reference shows. */
function catalogStatus(document: OpenAPIObject, code: string): Fact {
  const catalog = (document as { 'x-error-catalog'?: { code: string }[] })['x-error-catalog'] ?? [];
  const index = catalog.findIndex((e) => e.code === code);
  if (index === -1) throw new Error(`no catalog entry ${code}`);
  return `/x-error-catalog/${index}/x-status-provenance`;
}
/** A catalog entry as such (the code exists: documented for all 478). */
function catalogEntry(document: OpenAPIObject, code: string): Fact {
  return catalogStatus(document, code).replace(/\/x-status-provenance$/, '');
}
function catalogText(document: OpenAPIObject, code: string): Fact {
  return catalogStatus(document, code).replace(/status-provenance$/, 'text-provenance');
}

/** The 401 answer every operation declares (Authentication, point 3) and its problem type. */
const UNAUTHORIZED = response('createApiKey', 401);
const PROBLEM = at.schema('Problem');
const prop = (name: string) => at.property('Problem', name);
/** The list rules of the reference (Endpoints / List and search endpoints). */
const PAGING = [at.parameter('PageNumber'), at.parameter('PageSize'), at.schema('SkuListItemPage')];
const FILTER = at.parameter('FilterBy');
const SORT = at.parameter('SortBy');
const WEBHOOK = `/webhooks/${escapeToken('Items.Sku.Created.v1')}/post`;

/** Operations whose permission the reference names (MUST twins) and whose permission the contract infers. */
function permissionFacts(documented: boolean): Fact[] {
  return OPERATIONS.filter(
    (o) => o.permission.name !== null && (o.permission.provenance === 'documented') === documented,
  )
    .map(permissionOf)
    .concat(documented ? [response('createApiKey', 403)] : []);
}

/** Every check id and the facts it rests on. */
export function checkFacts(document: OpenAPIObject): Readonly<Record<string, readonly Fact[]>> {
  const status = (code: string) => catalogStatus(document, code);
  const entry = (code: string) => catalogEntry(document, code);
  return {
    'auth.401-no-credentials': [at.scheme('JWTApiKey'), UNAUTHORIZED],
    'auth.401-invalid-credentials': [at.scheme('JWTApiKey'), UNAUTHORIZED],
    'auth.401-no-code': [UNAUTHORIZED, prop('code')],
    'auth.401-type': [`${UNAUTHORIZED}/x-problem-type`],
    'auth.401-type-form': [`${UNAUTHORIZED}/x-problem-type/x-preferred-provenance`],
    'auth.401-problem': [UNAUTHORIZED, PROBLEM],
    'auth.key-repeating-bearer': [`${at.scheme('ApiKey')}/x-with-bearer`],
    'auth.401-other-key-with-bearer': [`${at.scheme('ApiKey')}/x-with-bearer`],
    'permissions.403-status': permissionFacts(true),
    'permissions.403-status.inferred': permissionFacts(false),
    'permissions.403-code': [...permissionFacts(true), status('COMMON.AUTH.MISSING_PERMISSIONS')],
    'permissions.403-code.inferred': permissionFacts(false),
    'permissions.403-names-permission': permissionFacts(true),
    'permissions.403-names-permission.inferred': permissionFacts(false),
    'errors.problem-shape': [PROBLEM, prop('type'), prop('title'), prop('status'), prop('detail'), prop('instance')],
    'errors.problem-status': [prop('status')],
    'errors.problem-instance': [prop('instance')],
    'errors.problem-code': [prop('code'), prop('type')],
    'errors.problem-content-type': [PROBLEM],
    'errors.problem-media-type': [at.decision('problem-media-type')],
    'errors.status-code-pair': [status('COMMON.QUERY.FILTER_PARSING_FAILED'), status('COMMON.ENTITY.NOT_FOUND')],
    'errors.status-code-pair.inferred': [status('COMMON.VALIDATION.ERROR')],
    'lists.defaults': PAGING,
    'lists.page-size-bounds': PAGING,
    'lists.page-size-max': PAGING,
    'lists.out-of-bounds-400': [...PAGING, status('COMMON.VALIDATION.ERROR')],
    'lists.envelope-arithmetic': PAGING,
    'lists.walk-pages': PAGING,
    'lists.sort-ascending': [SORT],
    'lists.sort-descending': [SORT],
    'lists.sort-ordinal': [SORT, at.decision('sort-collation')],
    'lists.sort-unknown-field': [SORT, status('COMMON.QUERY.SORTING_PARSING_FAILED')],
    'lists.sort-unknown-field-400': [SORT, status('COMMON.QUERY.SORTING_PARSING_FAILED')],
    'lists.field-support': [`${op(opById('listSkus'))}/x-list`],
    'lists.envelope': PAGING,
    'lists.envelope.inferred': [response('listEventVersions', 200)],
    'lists.sort-order': [SORT],
    'lists.sort-order.inferred': [SORT, `${op(opById('listSkus'))}/x-list`],
    'filters.unknown-column.inferred': [FILTER, `${op(opById('listSkus'))}/x-list`],
    ...operatorFacts(),
    'filters.and-or': [FILTER],
    'filters.parentheses': [FILTER],
    'filters.precedence': [FILTER, at.decision('filter-precedence')],
    'filters.unknown-column': [FILTER, status('COMMON.QUERY.FILTER_PARSING_FAILED')],
    'filters.syntax-error': [FILTER, status('COMMON.QUERY.FILTER_PARSING_FAILED')],
    'filters.contains-case-insensitive': [FILTER, at.decision('text-case')],
    'filters.field-name-case': [FILTER, at.decision('field-name-case')],
    'filters.date-only-day': [FILTER, at.decision('date-only-day')],
    'catalog.entries': [
      response('getError', 200),
      at.property('ErrorCatalogEntry', 'code'),
      at.property('ErrorCatalogEntry', 'title'),
      at.property('ErrorCatalogEntry', 'description'),
      at.property('ErrorCatalogEntry', 'parameters'),
    ],
    'catalog.entries-text': [catalogText(document, 'COMMON.QUERY.FILTER_PARSING_FAILED')],
    'catalog.entry-status': [at.property('ErrorCatalogEntry', 'status')],
    'catalog.unknown-code-404': [response('getError', 404), status('COMMON.ENTITY.NOT_FOUND')],
    'writes.stock-update-204': [op(opById('updateSkuStock')), `${response('updateSkuStock', 204)}/x-body-provenance`],
    'writes.stock-update-204-status': [response('updateSkuStock', 204)],
    'writes.stock-update-400': [response('updateSkuStock', 400), at.property('StockUpdateBody', 'stock')],
    'writes.stock-update-400.inferred': [status('COMMON.VALIDATION.ERROR')],
    'writes.stock-update-404': [response('updateSkuStock', 404)],
    'writes.stock-update-422': [response('updateSkuStock', 422), entry('COMMON.QUANTITY.UNIT_NOT_CONFIGURED')],
    'writes.inspection-update': [op(opById('updateSkuInspection')), at.schema('InspectionDefinition')],
    'writes.inspection-404': [response('updateSkuInspection', 404), status('COMMON.ENTITY.NOT_FOUND')],
    'writes.api-key': [op(opById('createApiKey')), at.schema('ApiKey'), at.scheme('ApiKey')],
    'writes.api-key-alone': [at.apiKey(opById('getTenantSelf').path, 'get')],
    'writes.subscription-lifecycle': [
      op(opById('createWebhookSubscription')),
      op(opById('listWebhookSubscriptions')),
      op(opById('deleteWebhookSubscription')),
    ],
    'writes.subscription-answers': [response('createWebhookSubscription', 201)],
    'writes.subscription-delete-404': [response('deleteWebhookSubscription', 404)],
    'writes.subscription-event-not-found': [entry('NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND')],
    'writes.subscription-event-not-found-400': [status('NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND')],
    'writes.subscription-invalid-url': [entry('NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL')],
    'writes.subscription-invalid-url-400': [status('NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL')],
    'writes.family-delete': [op(opById('deleteFamily'))],
    'writes.cancelled-line-422': [status('PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE')],
    'writes.purchase-order-line-update': [op(opById('updatePurchaseOrderLine'))],
    'webhooks.delivery': [op(opById('createWebhookSubscription')), `${WEBHOOK}/parameters/0`],
    'webhooks.signature': [`${WEBHOOK}/parameters/0`],
    'webhooks.payload': [at.schema('WebhookPayload')],
    'webhooks.event-id': [`${WEBHOOK}/parameters/1`],
    'webhooks.notification-success': [at.schema('NotificationStatus'), op(opById('getWebhookNotification'))],
    'webhooks.attempts': [op(opById('listWebhookNotificationAttempts'))],
    'webhooks.attempts-detail': [at.schema('DeliveryAttempt')],
    'webhooks.manual-retry': [op(opById('retryWebhookNotification'))],
    'webhooks.manual-retry-delivers': [response('retryWebhookNotification', 202)],
    'webhooks.manual-retry-recorded': [response('retryWebhookNotification', 202)],
    'rate-limit.429': [response('createApiKey', 429), status('COMMON.RATE_LIMIT.EXCEEDED')],
    'rate-limit.parameters': [prop('parameters')],
    'rate-limit.retry-after': [at.header('RetryAfter')],
    'rate-limit.recovery': [response('createApiKey', 429)],
    'isolation.lists': [at.scheme('JWTApiKey'), status('COMMON.ENTITY.NOT_FOUND')],
    'isolation.reads': [at.scheme('JWTApiKey'), status('COMMON.ENTITY.NOT_FOUND')],
    'isolation.writes': [at.scheme('JWTApiKey'), status('COMMON.ENTITY.NOT_FOUND')],
    'isolation.lists.inferred': [response('getWebhookNotification', 404)],
    'isolation.writes.inferred': [response('deleteWebhookSubscription', 404)],
    'schema.responses-valid': [at.schema('ApiKey'), at.schema('InspectionDefinition'), at.schema('ErrorCatalogEntry')],
    'schema.responses-valid.inferred': [response('createApiKey', 201), at.schema('Tenant')],
  };
}

/** Each filter operator is documented (Endpoints / List and search endpoints / Filter operators). */
function operatorFacts(): Record<string, Fact[]> {
  const ids = [
    'contains',
    'equals',
    'starts-with',
    'ends-with',
    'is-null',
    'is-not-null',
    'gt',
    'gte',
    'lt',
    'lte',
    'is-after',
    'is-on-or-after',
    'is-before',
    'is-on-or-before',
  ];
  return Object.fromEntries(ids.map((id) => [`filters.${id}`, [FILTER]]));
}
