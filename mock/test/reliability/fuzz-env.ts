/**
 * The environment shared by the fuzzing files: a harness with a small body limit, a signing receiver with a
 * subscription and one notification, the fixtures of the harness tenant and the forged tokens for it.
 */
import { expect } from 'vitest';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { startHarness, type Harness } from '../harness.js';
import { forgedTokens } from './forged-tokens.js';
import { startReceiver, Wire, type Receiver } from './support.js';

/** Runs of each property (bounded: the whole file stays well under a minute). */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
export const BODY_LIMIT = 64 * 1024 * 4; // 256 KB: large enough for the 100 KB strings, small enough to exceed cheaply.

export interface FuzzEnv {
  h: Harness;
  wire: Wire;
  m: FixtureManifest;
  receiver: Receiver;
  forged: { name: string; token: string }[];
}

/** Starts the environment; fills `ids` with the subscription and notification it creates. */
export async function startFuzzEnv(ids: { subscriptionId?: string; notificationId?: string }): Promise<FuzzEnv> {
  const receiver = await startReceiver();
  const h = await startHarness({ retrySchedule: [0], deliveryTimeoutMs: 2000, bodyLimit: BODY_LIMIT });
  const wire = new Wire(h.url);
  const m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
  receiver.secrets.add((await h.call('GET', '/__mock/webhook-secret')).body.secret as string);
  const sub = await h.call('POST', '/v1/notifications/webhook/subscriptions', {
    body: { endpoint: receiver.url, eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
    op: 'createWebhookSubscription',
  });
  expect(sub.status).toBe(201);
  ids.subscriptionId = sub.body.id as string;
  const emitted = await h.call('POST', '/__mock/events', { body: { eventName: 'Warehouse.Stock.Updated' } });
  expect(emitted.status).toBe(202);
  ids.notificationId = emitted.body.notifications[0] as string;
  const forged = await forgedTokens(h.mock.control.options.jwtSecret, h.org);
  return { h, wire, m, receiver, forged };
}

/** Closes what started and checks the receiver never saw a bad signature. */
export async function stopFuzzEnv(env: Partial<FuzzEnv>): Promise<void> {
  await env.wire?.close();
  await env.h?.close();
  await env.receiver?.close();
  expect(env.receiver?.badSignatures ?? 0).toBe(0);
}
