import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_NAME_LENGTH,
  MAX_URL_LENGTH,
  NAME_LENGTH_RATIONALE,
  URL_LENGTH_RATIONALE,
  inferredMaxLength,
} from '../limits.js';
import { documented, inferred, inferredKeyword, nonEmptyId } from '../provenance.js';
import { AUDIT_RATIONALE, DateTime, NullableDateTime, NullableString } from './common.js';
import { closedBody, openObject } from './open.js';

/** `Domain.Entity.Action` (Events, point 1), spelled as three capitalised alphanumeric words (inferred, see below). */
const EVENT_NAME_PATTERN = '^[A-Z][A-Za-z0-9]*\\.[A-Z][A-Za-z0-9]*\\.[A-Z][A-Za-z0-9]*$';

/** `EVENT_NAME_PATTERN` on a documented event name, marked inferred: the reference gives the parts, not their characters. */
const eventNamePattern = () =>
  inferredKeyword(
    'pattern',
    EVENT_NAME_PATTERN,
    'The reference gives the pattern `Domain.Entity.Action`: three parts separated by dots. Which characters a part takes is not shown; the pattern takes a capital letter, then letters and digits, as every name the reference shows does.',
  );

/** `minimum: 1` on a documented event version, marked inferred: the reference says "integer" only. */
const eventVersionMinimum = () =>
  inferredKeyword(
    'minimum',
    1,
    'The reference types `eventVersion` as an integer ("major version of the event contract") without bounds; versions count from 1.',
  );

const SUBSCRIPTION_RATIONALE =
  'Other fields returned for a subscription are not shown; `createdAt` is added so subscriptions can be sorted and filtered by date.';

/** Body of `POST /v1/notifications/webhook/subscriptions`. */
export const CreateSubscriptionBody = Type.Object(
  {
    endpoint: Type.String({
      ...inferredMaxLength(MAX_URL_LENGTH, URL_LENGTH_RATIONALE),
      description: 'absolute `http` or `https` URL of the receiver (`https` advised for production)',
      ...documented('resources.subscription.endpoint'),
    }),
    eventName: Type.String({
      ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
      description:
        'full event name, `Domain.Entity.Action`, as read from GET /v1/notifications/events/versions; a name or version the environment does not have gives NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
      ...documented('resources.subscription.eventName'),
    }),
    eventVersion: Type.Integer({
      ...eventVersionMinimum(),
      description: 'major version of the event contract',
      ...documented('resources.subscription.eventVersion'),
    }),
  },
  closedBody(
    'Which fields are required is not shown; all three are required to bind an event version to an endpoint. `endpoint` and `eventName` are checked by the service (INVALID_ENDPOINT_URL, EVENT_NOT_FOUND) rather than by schema patterns, so those documented codes answer malformed values too.',
  ),
);
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBody>;

/** A webhook subscription (Resources / Webhook subscription). */
export const Subscription = Type.Object(
  {
    id: Type.String({
      ...nonEmptyId(),
      description: 'identifier used in the DELETE path',
      ...documented('resources.subscription.id'),
    }),
    endpoint: Type.String({ description: 'receiving address', ...documented('resources.subscription.endpoint') }),
    eventName: Type.String({ description: 'full event name', ...documented('resources.subscription.eventName') }),
    eventVersion: Type.Integer({
      ...eventVersionMinimum(),
      description: 'major version of the event contract',
      ...documented('resources.subscription.eventVersion'),
    }),
    createdAt: DateTime('creation time', inferred(SUBSCRIPTION_RATIONALE)),
  },
  {
    ...openObject('Resources / Webhook subscription: "Other fields returned for a subscription: not shown".'),
    ...documented('events.3.subscription'),
  },
);
export type Subscription = Static<typeof Subscription>;

/** Notification states (States and transitions). */
export const NotificationStatus = Type.Union(
  [Type.Literal('Pending'), Type.Literal('Success'), Type.Literal('Failure')],
  {
    description:
      'Pending: pending or scheduled for a retry; Success: the receiver answered 2xx; Failure: automatic attempts exhausted (a manual retry is possible)',
    ...documented('resources.notification.status'),
  },
);
export type NotificationStatus = Static<typeof NotificationStatus>;

const NOTIFICATION_RATIONALE =
  'Fields of the notification record are not shown beyond `id` and the status; these are the fields a client needs to follow a delivery.';

/** The payload delivered to a receiver, and stored with its notification. */
export const WebhookPayload = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      description: 'event identifier; receivers store it to drop duplicates (also sent as the `X-Event-Id` header)',
      ...inferred('The field or header that carries the event identifier is not shown.'),
    }),
    eventName: Type.String({
      pattern: EVENT_NAME_PATTERN,
      description: 'the event name',
      ...inferred('Payload shape of a delivered notification is not shown.'),
    }),
    eventVersion: Type.Integer({
      minimum: 1,
      description: 'the event version',
      ...inferred('Payload shape of a delivered notification is not shown.'),
    }),
    occurredAt: DateTime(
      'when the business change happened',
      inferred('Payload shape of a delivered notification is not shown.'),
    ),
    orgCode: Type.String({
      description: 'organisation of the change',
      ...inferred('Payload shape of a delivered notification is not shown.'),
    }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'identifiers of what changed; the receiver reads the current state with the API (Events, point 5). Its shape per event is in the event catalog.',
      ...inferred('Payload shape of a delivered notification is not shown.'),
    }),
  },
  {
    ...openObject('Events, point 6: "Payload shape of a delivered notification: not shown".'),
    ...inferred('Payload shape of a delivered notification is not shown.'),
  },
);
export type WebhookPayload = Static<typeof WebhookPayload>;

/** A stored notification (Resources / Webhook notification). */
export const Notification = Type.Object(
  {
    id: Type.String({
      ...nonEmptyId(),
      description: 'identifier of the notification',
      ...documented('resources.notification.fields'),
    }),
    status: NotificationStatus,
    eventId: Type.String({
      description: 'identifier of the event (same as `payload.id`)',
      ...inferred(NOTIFICATION_RATIONALE),
    }),
    eventName: Type.String({ description: 'event name', ...inferred(NOTIFICATION_RATIONALE) }),
    eventVersion: Type.Integer({ minimum: 1, description: 'event version', ...inferred(NOTIFICATION_RATIONALE) }),
    subscriptionId: Type.String({
      description: 'subscription the notification was created for',
      ...inferred(NOTIFICATION_RATIONALE),
    }),
    endpoint: Type.String({ description: 'receiver address at creation time', ...inferred(NOTIFICATION_RATIONALE) }),
    attemptCount: Type.Integer({
      minimum: 0,
      description: 'number of delivery attempts made',
      ...inferred(NOTIFICATION_RATIONALE),
    }),
    nextAttemptAt: NullableDateTime(
      'when the next automatic attempt is due; null when none is scheduled',
      inferred(NOTIFICATION_RATIONALE),
    ),
    lastAttemptAt: NullableDateTime(
      'when the last attempt started; null before the first',
      inferred(NOTIFICATION_RATIONALE),
    ),
    createdAt: DateTime('creation time', inferred(AUDIT_RATIONALE)),
    lastModifiedAt: DateTime('last change of status or attempts', inferred(AUDIT_RATIONALE)),
    failureReason: Type.Optional(
      NullableString(
        'why the notification is Failure although its automatic attempts were not exhausted (a server that bounds the Pending notifications of a tenant ended it); null otherwise',
        inferred(
          'States and transitions give Failure for exhausted automatic attempts only; a server that bounds how many notifications may wait ends the oldest beyond the bound and says why here.',
        ),
      ),
    ),
    payload: WebhookPayload,
  },
  {
    ...openObject(
      'Resources / Webhook notification: "Fields of the notification record and of an attempt record: not shown beyond the identifier (`id`) and the status".',
    ),
    ...documented('resources.notification.status'),
  },
);
export type Notification = Static<typeof Notification>;

const ATTEMPT_RATIONALE =
  'Fields of an attempt record are not shown; these follow the delivery logs of common webhook services.';

/** One delivery attempt of a notification. */
export const DeliveryAttempt = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the attempt', ...inferred(ATTEMPT_RATIONALE) }),
    notificationId: Type.String({ description: 'the notification', ...inferred(ATTEMPT_RATIONALE) }),
    number: Type.Integer({
      minimum: 1,
      description: '1 for the first attempt, counting manual ones',
      ...inferred(ATTEMPT_RATIONALE),
    }),
    trigger: Type.Union([Type.Literal('Scheduled'), Type.Literal('Manual')], {
      description: 'an automatic attempt of the schedule, or a manual retry',
      ...inferred(ATTEMPT_RATIONALE),
    }),
    startedAt: DateTime('when the request was sent', inferred(ATTEMPT_RATIONALE)),
    endedAt: DateTime('when the response ended or the attempt failed', inferred(ATTEMPT_RATIONALE)),
    durationMs: Type.Integer({ minimum: 0, description: 'wall time of the attempt', ...inferred(ATTEMPT_RATIONALE) }),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: 'HTTP status answered; null when no response came',
      ...inferred(ATTEMPT_RATIONALE),
    }),
    responseBodyExcerpt: NullableString(
      'the first bytes of the response body (at most 1024 characters)',
      inferred(ATTEMPT_RATIONALE),
    ),
    errorKind: Type.Union(
      [
        Type.Literal('HttpStatus'),
        Type.Literal('Timeout'),
        Type.Literal('ConnectionError'),
        Type.Literal('BlockedEndpoint'),
        Type.Null(),
      ],
      { description: 'why the attempt failed; null on success', ...inferred(ATTEMPT_RATIONALE) },
    ),
    success: Type.Boolean({ description: 'whether the receiver answered 2xx', ...inferred(ATTEMPT_RATIONALE) }),
  },
  {
    ...openObject(
      'Resources / Webhook notification: "Fields of the notification record and of an attempt record: not shown beyond the identifier (`id`) and the status".',
    ),
    ...inferred(ATTEMPT_RATIONALE),
  },
);
export type DeliveryAttempt = Static<typeof DeliveryAttempt>;

const DESCRIPTOR_RATIONALE =
  'Other fields of the descriptor are not shown; the family, a description and whether the name is one the reference shows help a client choose.';

/** An event of the environment (Resources / Event descriptor). */
export const EventDescriptor = Type.Object(
  {
    eventName: Type.String({
      ...eventNamePattern(),
      description: 'full event name',
      ...documented('resources.event-descriptor'),
    }),
    eventVersion: Type.Integer({
      ...eventVersionMinimum(),
      description: 'major version of the event contract',
      ...documented('resources.event-descriptor'),
    }),
    family: Type.String({
      description: 'event family (Catalog, Warehouse, Planning, Production, Maintenance, Costs, People)',
      ...inferred(DESCRIPTOR_RATIONALE),
    }),
    description: Type.String({ description: 'what the event announces', ...inferred(DESCRIPTOR_RATIONALE) }),
    isDeprecated: Type.Boolean({
      description: 'true for a version superseded by a newer one',
      ...inferred(DESCRIPTOR_RATIONALE),
    }),
  },
  {
    ...openObject('Resources / Event descriptor: "Other fields of the descriptor: not shown".'),
    ...documented('resources.event-descriptor'),
  },
);
export type EventDescriptor = Static<typeof EventDescriptor>;

/** An `eventName` + `eventVersion` pair of the environment (`GET /v1/notifications/events/versions`). */
export const EventVersion = Type.Object(
  {
    eventName: Type.String({ ...eventNamePattern(), ...documented('endpoints.events.versions') }),
    eventVersion: Type.Integer({ ...eventVersionMinimum(), ...documented('endpoints.events.versions') }),
  },
  {
    ...openObject(
      'Endpoints / Event discovery: the versions endpoint exposes `eventName` and `eventVersion`; "Response shape: not shown".',
    ),
    ...documented('endpoints.events.versions'),
  },
);
export type EventVersion = Static<typeof EventVersion>;

/** Response of `GET /v1/notifications/events/versions`. */
export const EventVersionList = Type.Array(EventVersion, {
  description: 'every event name and version of the environment, unpaginated',
  ...inferred(
    'Response shape not shown; the versions endpoint answers the full list at once (it is small and read at start-up by clients).',
  ),
});
