/** Helpers of the replica tests: replica processes of the compiled CLI, calls, fresh tenants, polling. */
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { startListening, type Started } from '../../../test/support/process.js';
import type { WebhookReceiver } from '../../../common/receiver.js';
import { opsapiNodeArgs } from '../../../test/support/cli-command.js';
import { adminClaims } from '../../auth/presets.js';
import { mintToken } from '../../auth/tokens.js';
import { DEFAULT_JWT_SECRET } from '../../options.js';
import { startRedisServer } from '../../../common/redis-server.js';
import type { RedisServer } from '../../../test/support/redis.js';
import { BACKEND_HEADER, startRoundRobin, type RoundRobin } from './round-robin.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The settings every replica of one Redis shares (a replica with others is refused). */
export const SHARED = ['--rate-limit', '40/1m', '--retry-schedule', '0,2s', '--delivery-timeout', '1000'];
export const EVENT = 'Warehouse.Shipment.Shipped';

export interface Replica {
  readonly url: string;
  readonly process: Started;
}

/** A replica on a port the OS picks as it binds (test/support/process.ts, `startListening`). */
export async function startReplica(redis: string, extra: readonly string[] = []): Promise<Replica> {
  const args = opsapiNodeArgs(['mock', '--redis', redis, '--port', '0', '--quiet', ...SHARED, ...extra]);
  return startListening(process.execPath, args, { cwd: root, timeoutMs: 30_000 });
}

/** One call with the bearer token; the answer parsed, with the balancer's backend index when it went through one. */
export async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    backend: res.headers[BACKEND_HEADER],
    headers: res.headers,
    body: (text ? JSON.parse(text) : undefined) as any,
  };
}

let orgCount = 0;
export async function tenantToken(): Promise<string> {
  return mintToken(DEFAULT_JWT_SECRET, adminClaims(`replicas-${process.pid}-${++orgCount}`));
}

/** Polls until `probe` holds, at most `timeoutMs`. */
export async function until(probe: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** How many deliveries of each event id a receiver got. */
export function perEvent(receiver: WebhookReceiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of receiver.received) {
    const id = String(d.json?.id);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** A redis-server, replicas on it and a round-robin balancer in front of them. */
export interface Cluster {
  /** Replaced by a test that restarts Redis (`stopCluster` stops the current one). */
  redis: RedisServer;
  readonly replicas: Replica[];
  readonly balancer: RoundRobin;
}

/** Starts Redis, `count` replicas (with `extra` flags after the shared ones) and the balancer. */
export async function startCluster(
  count: number,
  extra: readonly string[] = [],
  redisOptions: Parameters<typeof startRedisServer>[0] = {},
): Promise<Cluster> {
  const redis = await startRedisServer(redisOptions);
  const replicas = await Promise.all(Array.from({ length: count }, () => startReplica(redis.url, extra)));
  return { redis, replicas, balancer: await startRoundRobin(replicas.map((r) => r.url)) };
}

/** Stops what `startCluster` started (what is left of it). */
export async function stopCluster(cluster: Cluster | undefined): Promise<void> {
  await cluster?.balancer.close();
  await Promise.all(cluster?.replicas.map((r) => r.process.stop()) ?? []);
  await cluster?.redis.stop();
}
