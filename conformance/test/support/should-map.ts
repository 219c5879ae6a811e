import { decisionPoints } from '../../../spec/decisions/index.js';

/**
 * Which decision points each SHOULD check compares. A SHOULD check judges what the reference leaves open (the
 * contract's inference), so a deployment that decided otherwise fails it; `opsapi learn` observes the point and
 * `opsapi conform --decisions` expects the observed value there instead. A check maps to the points it compares (an
 * id, or `kind:*` for every point of a kind), or says why no point can be learned for it. A test enumerates the
 * registry's SHOULD checks: a new one without an entry fails it.
 */
type ShouldEntry = readonly string[] | { readonly notLearnable: string };

export const SHOULD_MAP: Readonly<Record<string, ShouldEntry>> = {
  'auth.401-type-form': ['problem-401-type'],
  'auth.key-repeating-bearer': ['key-repeating-bearer'],
  'auth.401-other-key-with-bearer': ['other-api-key-with-bearer'],
  'permissions.403-status.inferred': ['permission:*'],
  'permissions.403-code.inferred': ['permission:*'],
  'permissions.403-names-permission.inferred': ['permission:*'],
  'errors.problem-media-type': ['problem-media-type'],
  'errors.status-code-pair.inferred': ['code-status:*'],
  'lists.out-of-bounds-400': ['code-status:COMMON.VALIDATION.ERROR'],
  'lists.sort-ordinal': ['null-order', 'list-fields:*'],
  'lists.sort-unknown-field': ['unknown-sort-field', 'code-status:COMMON.QUERY.SORTING_PARSING_FAILED'],
  'lists.sort-unknown-field-400': ['unknown-sort-field', 'code-status:COMMON.QUERY.SORTING_PARSING_FAILED'],
  'lists.field-support': ['list-fields:*'],
  'lists.envelope.inferred': ['list-form:*'],
  'lists.sort-order.inferred': ['list-fields:*'],
  'filters.precedence': ['filter-precedence'],
  'filters.contains-case-insensitive': ['text-case'],
  'filters.field-name-case': ['field-name-case'],
  'filters.date-only-day': ['date-only-equals'],
  'catalog.entries-text': ['catalog-texts'],
  'catalog.entry-status': ['record-fields:getError', 'code-status:*'],
  'writes.stock-update-204-status': ['success-status:updateSkuStock'],
  'writes.stock-update-400.inferred': ['code-status:COMMON.VALIDATION.ERROR'],
  'writes.stock-update-404': {
    notLearnable:
      'the pair it compares, 404 COMMON.ENTITY.NOT_FOUND for an addressed entity that does not exist, is documented (Errors / Status and code pairs); the check is SHOULD only because the reference does not list 404 among the statuses of the stock update, so a deployment answering otherwise departs from a documented pair and there is no decision to adopt',
  },
  'writes.api-key-alone': ['api-key-alone'],
  'writes.subscription-answers': [
    'success-status:createWebhookSubscription',
    'success-status:deleteWebhookSubscription',
    'record-fields:createWebhookSubscription',
  ],
  'writes.subscription-delete-404': {
    notLearnable:
      'the pair it compares, 404 COMMON.ENTITY.NOT_FOUND for a subscription id that does not exist, is documented (Errors / Status and code pairs); it is SHOULD only because the reference shows no error statuses for the delete operation, so there is no decision to adopt',
  },
  'writes.subscription-event-not-found-400': ['code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND'],
  'writes.subscription-invalid-url-400': ['code-status:NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL'],
  'writes.family-delete': ['success-status:deleteFamily', 'code-status:ITEMS.FAMILY.ALREADY_DELETED'],
  'writes.purchase-order-line-update': [
    'success-status:updatePurchaseOrderLine',
    'record-fields:updatePurchaseOrderLine',
  ],
  'webhooks.payload': ['webhook-payload'],
  'webhooks.event-id': ['webhook-event-id'],
  'webhooks.attempts-detail': ['list-form:listWebhookNotificationAttempts', 'webhook-attempt'],
  'webhooks.manual-retry-delivers': {
    notLearnable:
      'a manual retry to a receiver that accepts it must deliver again and end Success ("the state after a manual retry: not shown" leaves only what follows a failing retry open, which the check does not exercise); a deployment that does not deliver has a defect, not a decision',
  },
  'webhooks.manual-retry-recorded': ['success-status:retryWebhookNotification', 'webhook-attempt'],
  'rate-limit.retry-after': ['retry-delay'],
  'isolation.lists.inferred': {
    notLearnable:
      "tenant isolation is a security property (a multi-tenant service, What the service does): a list of one tenant showing another tenant's record is a defect whatever the deployment, never a decision to adopt",
  },
  'isolation.writes.inferred': {
    notLearnable:
      "tenant isolation is a security property: a change of one tenant's record by another tenant is a defect whatever the deployment, never a decision to adopt",
  },
  'schema.responses-valid.inferred': [
    'record-fields:*',
    'list-form:*',
    'success-status:*',
    'code-status:*',
    'problem-media-type',
    'webhook-payload',
  ],
};

/** The points an entry names (a `kind:*` pattern stands for every point of the kind). */
export function pointsOf(entry: ShouldEntry): string[] {
  if (!Array.isArray(entry)) return [];
  return (entry as readonly string[]).flatMap((id) =>
    id.endsWith(':*') ? [...decisionPoints().keys()].filter((p) => p.startsWith(id.slice(0, -1))) : [id],
  );
}
