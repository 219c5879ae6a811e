import { listField } from '../lists/fields.js';
import { listExamples } from '../lists/examples.js';
import { CREATED_BY_STOCK_EVENT, CREATED_BY_SUBSCRIPTION, DEMO } from '../examples/demo.js';
import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import {
  RATE_LIMITED,
  UNAUTHORIZED,
  forbidden,
  listBadRequest,
  notFound,
  planLimitExceeded,
} from './standard-errors.js';
import { idParam } from './common-params.js';
import { FIRST_RESULT_ID, link } from './links.js';

const LIST_RATIONALE =
  'Response shape and query parameters are not shown; the list follows the general list rules (page envelope, pageNumber, pageSize, filterBy, sortBy).';
const HISTORY_PERMISSION = INF(
  'The permission of the notification history is not shown; it is guarded like the subscriptions (`App.Admin`), since it exposes receiver addresses and payloads.',
);
const API_KEY_ON_LIST = DOC('auth.2.api-key');
const API_KEY_ELSEWHERE = INF(
  'The reference says the API key is sent "in list requests"; this kit also accepts it on every other operation.',
);

/** Examples of a notification id exist once the subscription and stock update examples ran (see `CREATED_BY_STOCK_EVENT`). */
const NOTIFICATION_EXAMPLE_REQUIRES = ['createWebhookSubscription', 'updateSkuStock'] as const;

const subscriptionFields = [
  listField('id', 'string'),
  listField('eventName', 'string'),
  listField('eventVersion', 'number'),
  listField('endpoint', 'string'),
  listField('createdAt', 'date'),
];

/** Endpoints / Webhook subscriptions: list. */
export const listWebhookSubscriptions: OperationDef = {
  operationId: 'listWebhookSubscriptions',
  method: 'get',
  path: '/v1/notifications/webhook/subscriptions',
  tag: 'Notifications',
  summary: 'List webhook subscriptions',
  description: "Lists the webhook subscriptions of the caller's organisation.",
  ...DOC('endpoints.subscriptions.list'),
  permission: { name: 'App.Admin', ...DOC('auth.4.permissions') },
  apiKey: API_KEY_ON_LIST,
  pathParams: [],
  list: {
    parametersIn: 'query',
    item: 'Subscription',
    filterAndSort: true,
    fieldsRationale:
      'Filterable and sortable fields per endpoint are not shown; every field of the subscription is offered.',
    fields: subscriptionFields,
    examples: listExamples(subscriptionFields, { filterBy: 'eventName[StartsWith]Warehouse.', sortBy: '-createdAt' }),
  },
  success: { status: 200, schema: 'SubscriptionPage', description: 'A page of subscriptions.', ...INF(LIST_RATIONALE) },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(true), RATE_LIMITED],
};

/** Endpoints / Webhook subscriptions: create. */
export const createWebhookSubscription: OperationDef = {
  operationId: 'createWebhookSubscription',
  method: 'post',
  path: '/v1/notifications/webhook/subscriptions',
  tag: 'Notifications',
  summary: 'Create a webhook subscription',
  description:
    'Binds an `eventName` and `eventVersion` of the environment (read them from GET /v1/notifications/events/versions) to an `endpoint`. Unknown event: NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND; invalid URL: NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL.',
  ...DOC('endpoints.subscriptions.create'),
  permission: { name: 'App.Admin', ...DOC('auth.4.permissions') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [],
  requestBody: {
    schema: 'CreateSubscriptionBody',
    description: '`{ endpoint, eventName, eventVersion }`',
    // The endpoint is the default address of `opsapi listen`: deliveries of the example stay on this machine.
    example: { endpoint: 'http://127.0.0.1:4020/', eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
    ...DOC('endpoints.subscriptions.create'),
  },
  success: {
    status: 201,
    schema: 'Subscription',
    description: 'The created subscription.',
    links: {
      deleteSubscription: link(
        'deleteWebhookSubscription',
        { id: '$response.body#/id' },
        'Deletes the subscription just created.',
      ),
    },
    ...INF('Response and status code of the create operation are not shown; 201 with the subscription.'),
  },
  errors: [
    {
      status: 400,
      codes: [
        'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
        'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
        'COMMON.VALIDATION.ERROR',
      ],
      description:
        'Unknown event name or version (EVENT_NOT_FOUND), endpoint that is not an absolute http(s) URL (INVALID_ENDPOINT_URL), or a body that does not match the schema (VALIDATION.ERROR).',
      ...INF(
        'The codes are documented (Events, point 3); their status is not shown. 400 is used: both reject the request body.',
      ),
    },
    UNAUTHORIZED,
    forbidden(true),
    planLimitExceeded('webhook subscriptions'),
    RATE_LIMITED,
  ],
};

/** Endpoints / Webhook subscriptions: delete. */
export const deleteWebhookSubscription: OperationDef = {
  operationId: 'deleteWebhookSubscription',
  method: 'delete',
  path: '/v1/notifications/webhook/subscriptions/{id}',
  tag: 'Notifications',
  summary: 'Delete a webhook subscription',
  description: 'Deletes a subscription; notifications already created for it keep their history.',
  ...DOC('endpoints.subscriptions.delete'),
  permission: { name: 'App.Admin', ...DOC('auth.4.permissions') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [idParam('subscription', DEMO.subscriptionId, CREATED_BY_SUBSCRIPTION)],
  exampleRequires: ['createWebhookSubscription'],
  success: {
    status: 204,
    schema: null,
    description: 'Deleted.',
    ...INF('Response and status code of the delete operation are not shown; 204 No Content.'),
  },
  errors: [UNAUTHORIZED, forbidden(true), notFound(undefined, 'The subscription'), RATE_LIMITED],
};

const notificationFields = [
  listField('id', 'string'),
  listField('status', 'enum', { enumValues: ['Pending', 'Success', 'Failure'] }),
  listField('eventId', 'string'),
  listField('eventName', 'string'),
  listField('eventVersion', 'number'),
  listField('subscriptionId', 'string'),
  listField('attemptCount', 'number'),
  listField('nextAttemptAt', 'date', { nullable: true }),
  listField('lastAttemptAt', 'date', { nullable: true }),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date'),
];

/** Endpoints / Notification history: list. */
export const listWebhookNotifications: OperationDef = {
  operationId: 'listWebhookNotifications',
  method: 'get',
  path: '/v1/notifications/webhook',
  tag: 'Notifications',
  summary: 'List stored notifications',
  description:
    "Lists the notifications of the caller's organisation with their status (Pending, Success, Failure). Filter by `status`, `eventName`, `CreatedAt`...",
  ...DOC('endpoints.notifications.list'),
  permission: { name: 'App.Admin', ...HISTORY_PERMISSION },
  apiKey: API_KEY_ON_LIST,
  pathParams: [],
  list: {
    parametersIn: 'query',
    item: 'Notification',
    filterAndSort: true,
    fieldsRationale: 'Filterable and sortable fields are not shown; the scalar fields of the notification are offered.',
    fields: notificationFields,
    examples: listExamples(notificationFields, { filterBy: 'status[Equals]Failure', sortBy: '-createdAt' }),
  },
  success: {
    status: 200,
    schema: 'NotificationPage',
    description: 'A page of notifications.',
    links: {
      getNotification: link(
        'getWebhookNotification',
        { id: FIRST_RESULT_ID },
        'Reads the first notification of the page.',
      ),
      listNotificationAttempts: link(
        'listWebhookNotificationAttempts',
        { id: FIRST_RESULT_ID },
        'Lists the delivery attempts of the first notification of the page.',
      ),
      retryNotification: link(
        'retryWebhookNotification',
        { id: FIRST_RESULT_ID },
        'Re-delivers the first notification of the page.',
      ),
    },
    ...INF(LIST_RATIONALE),
  },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(false), RATE_LIMITED],
};

/** Endpoints / Notification history: read one. */
export const getWebhookNotification: OperationDef = {
  operationId: 'getWebhookNotification',
  method: 'get',
  path: '/v1/notifications/webhook/{id}',
  tag: 'Notifications',
  summary: 'Read one notification',
  description: 'Reads one stored notification with its status and payload.',
  ...DOC('endpoints.notifications.get'),
  permission: { name: 'App.Admin', ...HISTORY_PERMISSION },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [idParam('notification', DEMO.notificationId, CREATED_BY_STOCK_EVENT)],
  exampleRequires: NOTIFICATION_EXAMPLE_REQUIRES,
  success: {
    status: 200,
    schema: 'Notification',
    description: 'The notification.',
    links: {
      listAttempts: link(
        'listWebhookNotificationAttempts',
        { id: '$response.body#/id' },
        'Lists the delivery attempts of this notification.',
      ),
      retry: link('retryWebhookNotification', { id: '$response.body#/id' }, 'Re-delivers this notification.'),
    },
    ...INF('Response shape is not shown.'),
  },
  errors: [UNAUTHORIZED, forbidden(false), notFound(undefined, 'The notification'), RATE_LIMITED],
};

const attemptFields = [
  listField('id', 'string'),
  listField('number', 'number'),
  listField('trigger', 'enum', { enumValues: ['Scheduled', 'Manual'] }),
  listField('success', 'boolean'),
  listField('responseStatus', 'number', { nullable: true }),
  listField('errorKind', 'enum', {
    nullable: true,
    enumValues: ['HttpStatus', 'Timeout', 'ConnectionError', 'BlockedEndpoint'],
  }),
  listField('durationMs', 'number'),
  listField('startedAt', 'date'),
  listField('endedAt', 'date'),
];

/** Endpoints / Notification history: attempts. */
export const listWebhookNotificationAttempts: OperationDef = {
  operationId: 'listWebhookNotificationAttempts',
  method: 'get',
  path: '/v1/notifications/webhook/{id}/attempts',
  tag: 'Notifications',
  summary: 'List delivery attempts of one notification',
  description: 'Lists the delivery attempts of a notification, scheduled and manual, oldest first by default.',
  ...DOC('endpoints.notifications.attempts'),
  permission: { name: 'App.Admin', ...HISTORY_PERMISSION },
  apiKey: API_KEY_ON_LIST,
  pathParams: [idParam('notification', DEMO.notificationId, CREATED_BY_STOCK_EVENT)],
  exampleRequires: NOTIFICATION_EXAMPLE_REQUIRES,
  list: {
    parametersIn: 'query',
    item: 'DeliveryAttempt',
    filterAndSort: true,
    fieldsRationale: 'Filterable and sortable fields are not shown; the scalar fields of the attempt are offered.',
    fields: attemptFields,
    examples: listExamples(attemptFields, { filterBy: 'trigger[Equals]Scheduled', sortBy: '-number' }),
  },
  success: { status: 200, schema: 'DeliveryAttemptPage', description: 'A page of attempts.', ...INF(LIST_RATIONALE) },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(false), notFound(undefined, 'The notification'), RATE_LIMITED],
};

/** Endpoints / Notification history: manual retry. */
export const retryWebhookNotification: OperationDef = {
  operationId: 'retryWebhookNotification',
  method: 'post',
  path: '/v1/notifications/webhook/{id}/retry',
  tag: 'Notifications',
  summary: 'Retry a notification manually',
  description:
    "Re-delivers a notification now, in any state (like a resend). The notification is Pending while the manual attempt runs and ends Success or Failure by that attempt; the attempt is recorded with trigger `Manual`. After the notification's subscription was deleted a retry still re-delivers, to the endpoint recorded on the notification (inferred: a notification is a self-contained record). No request body.",
  ...DOC('endpoints.notifications.retry'),
  permission: { name: 'App.Admin', ...HISTORY_PERMISSION },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [idParam('notification', DEMO.notificationId, CREATED_BY_STOCK_EVENT)],
  exampleRequires: NOTIFICATION_EXAMPLE_REQUIRES,
  success: {
    status: 202,
    schema: 'Notification',
    description: 'Accepted: the manual attempt is under way; the notification as it stands (status Pending).',
    ...INF(
      'Request body and response of the retry operation are not shown, nor the state after a manual retry; 202 Accepted with the notification.',
    ),
  },
  errors: [UNAUTHORIZED, forbidden(false), notFound(undefined, 'The notification'), RATE_LIMITED],
};

const eventFields = [
  listField('eventName', 'string'),
  listField('eventVersion', 'number'),
  listField('family', 'string'),
  listField('isDeprecated', 'boolean'),
];

/** Endpoints / Event discovery: list. */
export const listEvents: OperationDef = {
  operationId: 'listEvents',
  method: 'get',
  path: '/v1/notifications/events',
  tag: 'Events',
  summary: 'List available events of the environment',
  description:
    'Lists the events of the environment, one item per event name and version. Names are read from here, never constructed by hand.',
  ...DOC('endpoints.events.list'),
  permission: {
    name: null,
    ...INF(
      '"These need application access": any authenticated caller of the organisation; no named permission is required.',
    ),
  },
  apiKey: API_KEY_ON_LIST,
  pathParams: [],
  list: {
    parametersIn: 'query',
    item: 'EventDescriptor',
    filterAndSort: true,
    fieldsRationale: 'Filterable and sortable fields are not shown; the fields of the descriptor are offered.',
    fields: eventFields,
    examples: listExamples(eventFields, { filterBy: 'family[Equals]Warehouse', sortBy: 'eventName,-eventVersion' }),
  },
  success: {
    status: 200,
    schema: 'EventDescriptorPage',
    description: 'A page of event descriptors.',
    ...INF('Response shape: not shown. A page envelope, like every list.'),
  },
  errors: [listBadRequest(true), UNAUTHORIZED, RATE_LIMITED],
};

/** Endpoints / Event discovery: versions. */
export const listEventVersions: OperationDef = {
  operationId: 'listEventVersions',
  method: 'get',
  path: '/v1/notifications/events/versions',
  tag: 'Events',
  summary: 'Read the eventName and eventVersion values of the environment',
  description: 'Every `eventName` and `eventVersion` pair of the environment, unpaginated.',
  ...DOC('endpoints.events.versions'),
  permission: { name: null, ...INF('"These need application access": any authenticated caller; no named permission.') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [],
  success: {
    status: 200,
    schema: 'EventVersionList',
    description: 'The pairs.',
    ...INF('Response shape: not shown. A plain array of `{eventName, eventVersion}`.'),
  },
  errors: [UNAUTHORIZED, RATE_LIMITED],
};
