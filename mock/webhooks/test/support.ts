import { expect } from 'vitest';
import { adminClaims } from '../../auth/presets.js';
import { freshOrg, type CallOptions, type Harness, type Reply } from '../../test/harness.js';

/** A fresh tenant of a harness: its org, an admin token, and calls made with that token. */
export interface Tenant {
  readonly org: string;
  readonly token: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
}

/** A fresh org on the harness's mock, so tests sharing a server never see each other's subscriptions. */
export async function tenant(h: Harness, prefix = 'wh'): Promise<Tenant> {
  const org = freshOrg(prefix);
  const token = await h.token(adminClaims(org));
  return { org, token, call: (method, path, options = {}) => h.call(method, path, { token, ...options }) };
}

export async function subscribe(
  t: Tenant,
  endpoint: string,
  eventName: string,
  eventVersion = 1,
): Promise<{ id: string; endpoint: string }> {
  const reply = await t.call('POST', '/v1/notifications/webhook/subscriptions', {
    body: { endpoint, eventName, eventVersion },
    op: 'createWebhookSubscription',
  });
  expect(reply.status, reply.text).toBe(201);
  return reply.body;
}

export async function emit(
  t: Tenant,
  eventName: string,
  extra: Record<string, unknown> = {},
): Promise<{ eventId: string; notifications: string[] }> {
  const reply = await t.call('POST', '/__mock/events', { body: { eventName, ...extra } });
  expect(reply.status, reply.text).toBe(202);
  return reply.body;
}

export async function notification(t: Tenant, id: string): Promise<any> {
  const reply = await t.call('GET', `/v1/notifications/webhook/${id}`, { op: 'getWebhookNotification' });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

export async function attempts(t: Tenant, id: string): Promise<any[]> {
  const reply = await t.call('GET', `/v1/notifications/webhook/${id}/attempts?pageSize=100`, {
    op: 'listWebhookNotificationAttempts',
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.results;
}

/** `POST /__mock/clock {advanceSeconds}`: answers once every retry that fell due has run. */
export async function advance(t: Tenant, seconds: number): Promise<Reply> {
  const reply = await t.call('POST', '/__mock/clock', { body: { advanceSeconds: seconds } });
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

export async function webhookSecret(t: Tenant): Promise<string> {
  const reply = await t.call('GET', '/__mock/webhook-secret');
  expect(reply.status).toBe(200);
  return reply.body.secret;
}

/** Polls `probe` until it returns a value (not undefined/false), or throws after `timeoutMs`. */
export async function until<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 5000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Name of the contract component of one event version's payload (`Warehouse.Stock.Updated` v1 -> `WarehouseStockUpdatedV1Payload`). */
export function payloadComponent(eventName: string, eventVersion: number): string {
  return `${eventName.replace(/\./g, '')}V${eventVersion}Payload`;
}

/** Sum of the first `n` entries. */
export function cumulative(schedule: readonly number[], n: number): number {
  return schedule.slice(0, n).reduce((a, b) => a + b, 0);
}
