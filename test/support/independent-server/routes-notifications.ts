import { PERMISSIONS } from './auth.js';
import { EVENTS, findEvent } from './events.js';
import { readJsonBody, requireObject, sendJson } from './http-io.js';
import { pageOf, paramsFromQuery } from './listing.js';
import { ApiProblem } from './problems.js';
import type { RequestContext, Route } from './router.js';
import { MAX_SUBSCRIPTIONS, type Notification, nextId } from './tenants.js';
import {
  ATTEMPT_LIST,
  attemptView,
  EVENT_LIST,
  NOTIFICATION_LIST,
  notificationView,
  SUBSCRIPTION_LIST,
  subscriptionView,
} from './views.js';

/** Webhook subscriptions, notification history and event discovery (Endpoints; Events). */

/** An absolute http(s) URL with a host (Resources / Webhook subscription: `http` and `https` are accepted). */
function isEndpointUrl(text: string): boolean {
  if (text.length > 2048) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const listSubscriptions: Route = {
  method: 'GET',
  pattern: '/v1/notifications/webhook/subscriptions',
  permission: PERMISSIONS.admin,
  handle(ctx) {
    const views = [...ctx.tenant.subscriptions.values()].map(subscriptionView);
    sendJson(ctx.res, 200, pageOf(views, SUBSCRIPTION_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

const createSubscription: Route = {
  method: 'POST',
  pattern: '/v1/notifications/webhook/subscriptions',
  permission: PERMISSIONS.admin,
  async handle(ctx) {
    const body = requireObject(await readJsonBody(ctx.req), 'subscription');
    const { endpoint, eventName, eventVersion } = body;
    if (typeof endpoint !== 'string') throw ApiProblem.validation('endpoint must be a string');
    if (typeof eventName !== 'string') throw ApiProblem.validation('eventName must be a string');
    if (typeof eventVersion !== 'number' || !Number.isInteger(eventVersion))
      throw ApiProblem.validation('eventVersion must be an integer');
    if (!isEndpointUrl(endpoint))
      throw ApiProblem.coded(
        'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
        'endpoint must be an absolute http or https URL',
        { endpoint },
      );
    if (!findEvent(eventName, eventVersion))
      throw ApiProblem.coded(
        'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
        `no event ${eventName} at version ${eventVersion} in this environment`,
        { eventName, eventVersion },
      );
    if (ctx.tenant.subscriptions.size >= MAX_SUBSCRIPTIONS)
      throw ApiProblem.coded(
        'COMMON.TENANT.PLAN_LIMIT_EXCEEDED',
        `an organisation keeps at most ${MAX_SUBSCRIPTIONS} subscriptions`,
        { limit: MAX_SUBSCRIPTIONS },
      );
    const subscription = {
      id: nextId(ctx.tenant, 'sub'),
      endpoint,
      eventName,
      eventVersion,
      createdAt: new Date().toISOString(),
    };
    ctx.tenant.subscriptions.set(subscription.id, subscription);
    sendJson(ctx.res, 200, subscriptionView(subscription));
  },
};

const deleteSubscription: Route = {
  method: 'DELETE',
  pattern: '/v1/notifications/webhook/subscriptions/{id}',
  permission: PERMISSIONS.admin,
  handle(ctx) {
    const id = ctx.params.id ?? '';
    if (!ctx.tenant.subscriptions.delete(id)) throw ApiProblem.notFound('subscription', id);
    sendJson(ctx.res, 200, { deleted: true, id });
  },
};

function notificationOf(ctx: RequestContext): Notification {
  const id = ctx.params.id ?? '';
  const notification = ctx.tenant.notifications.get(id);
  if (!notification) throw ApiProblem.notFound('notification', id);
  return notification;
}

const listNotifications: Route = {
  method: 'GET',
  pattern: '/v1/notifications/webhook',
  permission: PERMISSIONS.admin,
  handle(ctx) {
    const views = [...ctx.tenant.notifications.values()].map(notificationView);
    sendJson(ctx.res, 200, pageOf(views, NOTIFICATION_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

const getNotification: Route = {
  method: 'GET',
  pattern: '/v1/notifications/webhook/{id}',
  permission: PERMISSIONS.admin,
  handle(ctx) {
    sendJson(ctx.res, 200, notificationView(notificationOf(ctx)));
  },
};

const listAttempts: Route = {
  method: 'GET',
  pattern: '/v1/notifications/webhook/{id}/attempts',
  permission: PERMISSIONS.admin,
  handle(ctx) {
    const views = notificationOf(ctx).attempts.map(attemptView);
    sendJson(ctx.res, 200, pageOf(views, ATTEMPT_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

/** Manual retry, allowed in every state; answers the notification once the attempt is recorded. */
const retryNotification: Route = {
  method: 'POST',
  pattern: '/v1/notifications/webhook/{id}/retry',
  permission: PERMISSIONS.admin,
  async handle(ctx) {
    const notification = notificationOf(ctx);
    await ctx.deliverer.retry(ctx.tenant, notification);
    sendJson(ctx.res, 200, notificationView(notification));
  },
};

const listEvents: Route = {
  method: 'GET',
  pattern: '/v1/notifications/events',
  handle(ctx) {
    const views = EVENTS.map((e) => ({ ...e }));
    sendJson(ctx.res, 200, pageOf(views, EVENT_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

const listEventVersions: Route = {
  method: 'GET',
  pattern: '/v1/notifications/events/versions',
  handle(ctx) {
    const views = EVENTS.map((e) => ({ eventName: e.eventName, eventVersion: e.eventVersion }));
    sendJson(ctx.res, 200, pageOf(views, EVENT_LIST, paramsFromQuery(ctx.query), ctx.faults));
  },
};

export const NOTIFICATION_ROUTES: readonly Route[] = [
  listSubscriptions,
  createSubscription,
  deleteSubscription,
  listNotifications,
  listEvents,
  listEventVersions,
  getNotification,
  listAttempts,
  retryNotification,
];
