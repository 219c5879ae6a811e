import type { CreateSubscriptionBody, EventDescriptor, Subscription } from '../../spec/schemas/notifications.js';
import { EVENT_CATALOG, findEventVersion } from '../../spec/events/catalog.js';
import { ListCollection } from '../lists/index.js';
import { notFound, ok } from './context.js';
import { listAnswer } from './list-answer.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { TenantState } from '../store/tenant-state.js';
import { planLimitExceeded, type PlanLimits } from './plan-limits.js';
import type { DomainHandlers } from './types.js';

/** Event descriptors of the environment, one per name and version, with a list id `name@version`. */
const DESCRIPTORS = new ListCollection<EventDescriptor & { id: string }>(
  EVENT_CATALOG.flatMap((e) =>
    e.versions.map((v) => ({
      id: `${e.eventName}@${v.version}`,
      eventName: e.eventName,
      eventVersion: v.version,
      family: e.family,
      description: e.description,
      isDeprecated: v.deprecated,
    })),
  ),
);
const withoutId = ({ id: _id, ...rest }: EventDescriptor & { id: string }): EventDescriptor => rest;

/**
 * Whether an endpoint is an absolute http(s) URL a subscription may use (Events, point 3: an invalid endpoint
 * URL fails with NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL). Credentials in the URL and fragments are refused
 * (inferred: they would leak or be dropped).
 */
export function endpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `uses ${url.protocol.replace(':', '')}; only http and https are accepted`;
  if (!url.hostname) return 'has no host';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not have a fragment';
  if (/\s/.test(endpoint)) return 'must not contain whitespace';
  return null;
}

/** Stores a new subscription of the tenant (checked by the caller); the one write of a subscription (handler and set-up). */
export function addSubscription(tenant: TenantState, body: CreateSubscriptionBody): Subscription {
  const id = tenant.ids.next('sub');
  const subscription: Subscription = {
    id,
    endpoint: body.endpoint,
    eventName: body.eventName,
    eventVersion: body.eventVersion,
    createdAt: tenant.nowIso(),
  };
  tenant.commit('subscription', id, subscription);
  return subscription;
}

/**
 * Handlers of the Notifications and Events tags; the delivery engine does the webhook work. A tenant holds at most
 * `maxSubscriptions` subscriptions: every event fans out to each, so the bound also bounds what one write makes.
 */
export function notificationHandlers(engine: WebhookEngine, limits: PlanLimits) {
  return {
    listWebhookSubscriptions: (ctx) => listAnswer(ctx, ctx.tenant.subscriptions),

    createWebhookSubscription: (ctx) => {
      const body = ctx.body as CreateSubscriptionBody;
      const endpointError = endpointProblem(body.endpoint);
      if (endpointError) {
        return ctx.problem(
          'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
          `The endpoint '${body.endpoint}' ${endpointError}.`,
          { endpoint: body.endpoint },
        );
      }
      if (!findEventVersion(body.eventName, body.eventVersion)) {
        return ctx.problem(
          'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
          `The environment has no event '${body.eventName}' version ${body.eventVersion}; read the names from GET /v1/notifications/events/versions.`,
          { eventName: body.eventName, eventVersion: body.eventVersion },
        );
      }
      // Checked after the body's own errors: a request that could never succeed says so first.
      if (ctx.tenant.subscriptions.size >= limits.maxSubscriptions)
        return planLimitExceeded(ctx, {
          limit: 'max-subscriptions',
          resource: 'Subscription',
          what: 'webhook subscriptions',
          maximum: limits.maxSubscriptions,
          remedy: 'delete one before creating another.',
        });
      const subscription = addSubscription(ctx.tenant, body);
      return ok(201, subscription, { location: `/v1/notifications/webhook/subscriptions/${subscription.id}` });
    },

    deleteWebhookSubscription: (ctx) => {
      const id = ctx.params.id ?? '';
      if (!ctx.tenant.subscriptions.has(id)) return notFound(ctx, 'Subscription', id);
      ctx.tenant.commit('subscription', id, null);
      return ok(204);
    },

    listWebhookNotifications: (ctx) => listAnswer(ctx, ctx.tenant.notifications),

    getWebhookNotification: (ctx) => {
      const id = ctx.params.id ?? '';
      const notification = ctx.tenant.notifications.get(id);
      return notification ? ok(200, notification) : notFound(ctx, 'Notification', id);
    },

    listWebhookNotificationAttempts: (ctx) => {
      const id = ctx.params.id ?? '';
      if (!ctx.tenant.notifications.has(id)) return notFound(ctx, 'Notification', id);
      return listAnswer(ctx, ctx.tenant.attemptsOf(id));
    },

    retryWebhookNotification: (ctx) => {
      const id = ctx.params.id ?? '';
      const notification = engine.retry(ctx.tenant, id);
      return notification ? ok(202, notification) : notFound(ctx, 'Notification', id);
    },

    listEvents: (ctx) => listAnswer(ctx, DESCRIPTORS, withoutId),

    listEventVersions: () =>
      ok(
        200,
        EVENT_CATALOG.flatMap((e) => e.versions.map((v) => ({ eventName: e.eventName, eventVersion: v.version }))),
      ),
  } satisfies DomainHandlers;
}
