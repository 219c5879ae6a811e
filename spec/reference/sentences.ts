/**
 * The sentences of the API reference that the contract quotes, verbatim: the project's own copy of the reference's
 * words (the reference text itself is not part of the project). Every `x-provenance: documented` of the contract
 * quotes one of them in `x-reference-quote` (spec/provenance.ts); `spec/test/quotes.test.ts` fails on a documented
 * node whose quote is not here, and on a sentence here that nothing quotes.
 *
 * Each entry is one sentence, or one row of a table written as the reference writes it (`| field | type | notes |`),
 * without the number of a numbered point. Sections are named as the reference names them, `Part / Subsection`.
 * The lines of the error code catalog are kept apart, in `catalog-lines.ts`.
 */
export const SECTIONS = {
  'Resources and their fields / API key (response of key creation)': {
    'resources.api-key.id': '| id | string | identifier of the key record |',
    'resources.api-key.key': '| key | string | the secret key value, returned in the creation response |',
    'resources.api-key.name': '| name | string | the name sent at creation |',
    'resources.api-key.orgCode': '| orgCode | string | organisation code |',
    'resources.api-key.isActive': '| isActive | boolean | whether the key is active |',
  },
  'Resources and their fields / Webhook subscription': {
    'resources.subscription.endpoint':
      '| endpoint | string (URL) | public receiving address; `http` and `https` are accepted, `https` is advised for production |',
    'resources.subscription.eventName': '| eventName | string | full event name, pattern `Domain.Entity.Action` |',
    'resources.subscription.eventVersion': '| eventVersion | integer | major version of the event contract |',
    'resources.subscription.id': '| id | string | identifier used in the DELETE path |',
  },
  'Resources and their fields / Webhook notification': {
    'resources.notification.status':
      'A stored notification with a status of `Pending`, `Success` or `Failure`, and a list of delivery attempts (read with the attempts endpoint).',
    'resources.notification.fields':
      'Fields of the notification record and of an attempt record: not shown beyond the identifier (`id`) and the status.',
  },
  'Resources and their fields / Event descriptor': {
    'resources.event-descriptor': 'The events endpoints expose, per event, an `eventName` and an `eventVersion`.',
  },
  'Resources and their fields / Stock update body (SKU stock)': {
    'resources.stock-body.locationReference': '| locationReference | string | reference of the location |',
    'resources.stock-body.stock': '| stock | number | the stock quantity to set |',
    'resources.stock-body.lotId': '| lotId | string | lot identifier |',
    'resources.stock-body.comment': '| comment | string | free text |',
    'resources.stock-body.stockUnitOfMeasureId':
      '| stockUnitOfMeasureId | string | identifier of the unit of measure of `stock` |',
  },
  'Resources and their fields / SKU inspection definition': {
    'resources.inspection.id': '| id | string | response only |',
    'resources.inspection.name': '| name | string | |',
    'resources.inspection.type':
      '| type | string | response only; the value `Simple` is shown; other allowed values: not shown |',
    'resources.inspection.isMandatory': '| isMandatory | boolean | |',
  },
  'Resources and their fields / Page of results (list envelope)': {
    'resources.page.results': '| results | array | the items of the page |',
    'resources.page.pageNumber': '| pageNumber | integer | the page returned |',
    'resources.page.pageSize': '| pageSize | integer | the page size used |',
    'resources.page.totalPages': '| totalPages | integer | number of pages |',
    'resources.page.totalCount': '| totalCount | integer | number of items over all pages |',
    'resources.page.sku-item':
      'A list item carries at least `reference` (string) and `name` (string) for SKUs, and an `id`.',
  },
  'Resources and their fields / Error catalog entry': {
    'resources.catalog-entry.code': '| code | string | one of the error codes listed in the Errors part |',
    'resources.catalog-entry.title': '| title | string | |',
    'resources.catalog-entry.description': '| description | string | |',
    'resources.catalog-entry.parameters':
      '| parameters | array of objects | each has `key` (string) and `description` (string) |',
  },
  Endpoints: {
    'endpoints.error-responses': 'Error responses follow the Errors part.',
  },
  'Endpoints / Create an API key': {
    'endpoints.create-key.method-path': '| Method and path | `POST /v1/access/apiKeys` |',
    'endpoints.create-key.permission': '| Permission | role/permission `App.Admin` |',
    'endpoints.create-key.request-body': '| Request body | `{ name: string }` |',
    'endpoints.create-key.response-body':
      '| Response body | API key object (`id`, `key`, `name`, `orgCode`, `isActive`) |',
  },
  'Endpoints / Webhook subscriptions (permission `App.Admin`)': {
    'endpoints.subscriptions.list': '| `GET /v1/notifications/webhook/subscriptions` | none shown | subscriptions |',
    'endpoints.subscriptions.create':
      '| `POST /v1/notifications/webhook/subscriptions` | `{ endpoint: string, eventName: string, eventVersion: integer }` | not shown |',
    'endpoints.subscriptions.delete':
      '| `DELETE /v1/notifications/webhook/subscriptions/{id}` | path `id` | not shown |',
  },
  'Endpoints / Notification history': {
    'endpoints.notifications.list': '| `GET /v1/notifications/webhook` | list stored notifications |',
    'endpoints.notifications.get': '| `GET /v1/notifications/webhook/{id}` | read one notification |',
    'endpoints.notifications.attempts':
      '| `GET /v1/notifications/webhook/{id}/attempts` | list delivery attempts of one notification |',
    'endpoints.notifications.retry': '| `POST /v1/notifications/webhook/{id}/retry` | retry a notification manually |',
  },
  'Endpoints / Event discovery': {
    'endpoints.events.list': '| `GET /v1/notifications/events` | list available events of the environment |',
    'endpoints.events.versions':
      '| `GET /v1/notifications/events/versions` | read the `eventName` and `eventVersion` values of the environment |',
  },
  'Endpoints / Update SKU stock': {
    'endpoints.stock.method-path': '| Method and path | `PUT /v1/items/skus/{skuReference}/stock` |',
    'endpoints.stock.permission': '| Permission | `Warehouse.Counts.Write` |',
    'endpoints.stock.path-parameter': '| Path parameter | `skuReference` (string) |',
    'endpoints.stock.request-body':
      '| Request body | stock update body (locationReference, stock, lotId, comment, stockUnitOfMeasureId) |',
    'endpoints.stock.success': '| Success | no content (no response body) |',
    'endpoints.stock.error-statuses': '| Error statuses shown | 400, 401, 403, 422, 429 |',
  },
  'Endpoints / Update a SKU inspection definition': {
    'endpoints.inspection.method-path':
      '| Method and path | `PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}` |',
    'endpoints.inspection.permission': '| Permission | `Warehouse.Skus.Write` |',
    'endpoints.inspection.path-parameters': '| Path parameters | `skuReference` (string), `inspectionId` (string) |',
    'endpoints.inspection.request-body': '| Request body | `{ name: string, isMandatory: boolean }` |',
    'endpoints.inspection.response-body':
      '| Response body | inspection definition (`id`, `name`, `type`, `isMandatory`) |',
    'endpoints.inspection.error-statuses': '| Error statuses shown | 400, 401, 403, 404, 422, 429 |',
  },
  'Endpoints / Get an error from the catalog': {
    'endpoints.get-error.method-path': '| Method and path | `GET /v1/errors/{errorCode}` |',
    'endpoints.get-error.path-parameter': '| Path parameter | `errorCode`: one of the codes in the Errors part |',
    'endpoints.get-error.response':
      '| Response (200) | error catalog entry (`code`, `title`, `description`, `parameters[]` with `key`, `description`) |',
    'endpoints.get-error.error-statuses': '| Error statuses shown | 404 entity not found (see the Errors part) |',
  },
  'Endpoints / List and search endpoints (general rules)': {
    'lists.general':
      'List and search endpoints return a page of results and accept `pageNumber`, `pageSize`, and on some endpoints `filterBy` and `sortBy`.',
    'lists.pageNumber': '| pageNumber | integer | 1 | greater than or equal to 1 |',
    'lists.pageSize': '| pageSize | integer | 25 | between 1 and 1000 inclusive |',
    'lists.filterBy': '| filterBy | string | none | expression `Field[Operator]value` |',
    'lists.sortBy': '| sortBy | string | none | field name; a leading `-` means descending order |',
  },
  'Authentication, point 1': {
    'auth.1.bearer':
      'Requests carry credentials in the `Authorization` header with the format `Bearer <ACCESS_TOKEN>` (a JWT).',
  },
  'Authentication, point 2': {
    'auth.2.api-key':
      'An API key (the `key` value returned by key creation) is also sent in an `X-Api-Key` header in list requests.',
  },
  'Authentication, point 3': {
    'auth.3.unauthenticated':
      'A request without valid authentication gets status 401 with a problem body that has no `code` field.',
  },
  'Authentication, point 4': {
    'auth.4.permissions':
      'Operations need a role or permission: `App.Admin` (key creation, webhook subscriptions), `Warehouse.Counts.Write` (stock update), `Warehouse.Skus.Write` (inspection update).',
    'auth.4.forbidden':
      'A caller that lacks a permission gets 403 with code `COMMON.AUTH.MISSING_PERMISSIONS`; the detail names the missing permission (permission names have the shape `Domain.Resource.Access`, for example one ending in `.Read` or `.Write`).',
  },
  'Authentication, point 5': {
    'auth.5.signature':
      'Webhook signing: the service signs the serialized JSON body of each notification with HMAC-SHA256 using a secret and sends the signature as 64 lowercase hexadecimal characters in the `X-HMAC-Signature` header.',
  },
  'Events, point 2': {
    'events.2.names':
      'Event names shown: `Items.Sku.Created`, `Planning.SalesOrder.LineConfirmed`, `Planning.PurchaseOrder.LineConfirmed`, `Warehouse.Receipt.Received`, `Warehouse.Shipment.Shipped`, `Production.Order.Finished`, `Maintenance.WorkOrder.Completed`.',
  },
  'Events, point 3': {
    'events.3.subscription': 'A subscription binds `eventName` and `eventVersion` to an `endpoint`.',
    'events.3.codes':
      'Subscribing to an unknown event fails with code `NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND`; an invalid endpoint URL fails with `NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL`.',
  },
  'Events, point 4': {
    'events.4.accept':
      'The receiver answers with a `2xx` status to accept the event; the notification then has status `Success`.',
  },
  'Errors / Problem body': {
    'errors.problem': 'Errors are JSON objects:',
    'errors.problem.type':
      '| type | string | for coded errors `{base_url}/errors/<code>`; for the plain 401 the address of the HTTP semantics RFC 9110 section on 401 |',
    'errors.problem.title': '| title | string | short title |',
    'errors.problem.status': '| status | integer | HTTP status |',
    'errors.problem.detail': '| detail | string | explanation |',
    'errors.problem.instance': '| instance | string | `<METHOD> <request path>` of the failed request |',
    'errors.problem.code': '| code | string | error code; absent on the plain 401 |',
    'errors.problem.parameters': '| parameters | object | present on the 429 body (empty object shown) |',
  },
  'Errors / Status and code pairs shown': {
    'errors.pair.400':
      '| 400 | `COMMON.QUERY.FILTER_PARSING_FAILED` | filter string cannot be parsed or names a column that does not exist |',
    'errors.pair.403': '| 403 | `COMMON.AUTH.MISSING_PERMISSIONS` | caller lacks a permission |',
    'errors.pair.404': '| 404 | `COMMON.ENTITY.NOT_FOUND` | an addressed entity does not exist |',
    'errors.pair.422':
      '| 422 | `PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE` | a cancelled purchase order line is modified |',
    'errors.pair.429':
      '| 429 | `COMMON.RATE_LIMIT.EXCEEDED` | the request rate limit of the tenant is exceeded; the caller retries after the indicated delay |',
  },
  'Errors / Error code catalog': {
    'errors.catalog.format':
      'Each code is written as the prefix (ending with a dot) followed by a suffix from the list.',
  },
  Limits: {
    'limits.rate':
      '| Request rate | a per-tenant rate limit exists; exceeding it returns 429 with code `COMMON.RATE_LIMIT.EXCEEDED` | all operations |',
  },
} as const;

/**
 * The reference's rules for clients and webhook receivers, verbatim, which no node of the contract describes (the
 * document describes the service): the mock's client checks quote them (`mock/client-checks/checks.ts`, whose test
 * fails on a sentence here that no check quotes). Ids and sections as in `SECTIONS`; none repeats a sentence there.
 */
export const CLIENT_SECTIONS = {
  'What the service does': {
    'service.data-formats':
      'Data formats: requests and responses are JSON (`Content-Type: application/json` for bodies).',
  },
  'Endpoints / List and search endpoints (general rules)': {
    'lists.walk': 'A client walks all pages by requesting pages while `pageNumber` is less than `totalPages`.',
    'lists.filter-encoding': 'Inside a URL query string `&&` is sent percent-encoded (`%26%26`).',
  },
  'Authentication, point 5': {
    'auth.5.receiver':
      'A receiver computes the HMAC-SHA256 of the unmodified raw body with the secret, hex-encodes it, and compares it in constant time; a signature that is not 64 hexadecimal characters is invalid.',
    'auth.5.reserialising': 'Re-serialising parsed JSON before checking may break the match.',
  },
  'Events, point 2': {
    'events.2.read-names':
      'Exact names and versions of an environment are read from `GET /v1/notifications/events/versions`; names are not to be constructed by hand.',
  },
  'Events, point 4': {
    'events.4.receivers':
      'Receivers should answer quickly and process in the background, and should store the event identifier to drop duplicates.',
  },
  'Events, point 5': {
    'events.5.read-state':
      'A notification may only announce a change; the receiver then reads the current state with the API using the identifier received.',
  },
  'Versioning, point 2': {
    'versioning.2.mix':
      'A consumer treats `eventVersion` as part of the contract and does not mix versions without testing the data received.',
  },
  'Versioning, point 3': {
    'versioning.3.run-time':
      'New features can add available events to an environment; the available events and versions are read at run time from the events endpoints.',
  },
} as const;
