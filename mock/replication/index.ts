import { createHash, randomUUID } from 'node:crypto';
import type { TokenVerifier } from '../auth/tokens.js';
import type { AppDecorator } from '../http/decorator.js';
import type { ReplicationStats } from '../http/services.js';
import type { Rate } from '../rate-limit.js';
import type { Store } from '../store/store.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { Job } from '../webhooks/runtime.js';
import type { SchedulerFactory } from '../webhooks/scheduler.js';
import { ClaimPoller } from './claim-poller.js';
import { replicationGate } from './gate.js';
import { redisLocation, replicationKeys } from './keys.js';
import { connectRedis, firstClaim, type RedisLink, RedisUnavailableError } from './redis-commands.js';
import { Replica } from './replica.js';
import { SharedScheduler } from './shared-scheduler.js';

/** Replicas that would answer differently for the same tenant must not share one Redis. */
class ReplicationConfigError extends Error {
  override readonly name = 'ReplicationConfigError';
}

/** What the composition root (mock/server.ts) wires in when `--redis` is given. */
interface Replication {
  /** Hooks around the HTTP shell: bring a tenant up to date before its request, append its writes before the answer. */
  readonly gate: AppDecorator;
  /** The webhook engine's schedules, shared in Redis. */
  readonly schedulers: SchedulerFactory<Job>;
  /** Brings a tenant up to date with the log (a reset made on another replica drops this copy). */
  readonly refresh: (org: string) => Promise<unknown>;
  /** Starts making the attempts that fall due (this replica's share). */
  start(engine: WebhookEngine): void;
  /** This replica and the shared schedule, for `/__mock/stats`. */
  stats(): Promise<ReplicationStats>;
  /** Stops claiming, waits for the attempts under way, closes the connection. */
  close(): Promise<void>;
}

/** Timings (inferred): see ClaimSettings and ReplicaSettings. */
const POLL_MS = 20;
const IDLE_MS = 1_000;
const LOCK_MS = 5_000;
const LOCK_WAIT_MS = 6_000;
/** The same trouble is told at most this often (a lost Redis would otherwise fill the log 50 times a second). */
const WARN_EVERY_MS = 10_000;

/** `warn`, saying each distinct message at most once per `everyMs` (with how many were held back). */
function throttled(warn: (message: string) => void, everyMs: number): (message: string) => void {
  const last = new Map<string, { at: number; held: number }>();
  return (message) => {
    const now = Date.now();
    const seen = last.get(message);
    if (seen && now - seen.at < everyMs) {
      seen.held++;
      return;
    }
    if (last.size > 100) last.clear();
    last.set(message, { at: now, held: 0 });
    warn(seen?.held ? `${message} (and ${seen.held} more like it)` : message);
  };
}

/**
 * The options a replica reads. The composition root passes the mock's whole options (mock/options.ts declares them);
 * this layer names only what it uses, so it depends on nothing above it.
 */
interface ReplicaOptions {
  readonly seed: number;
  readonly skus: number;
  readonly jwtSecret: string;
  readonly retrySchedule: readonly number[];
  readonly rateLimit: Rate | null;
  readonly deliveryTimeoutMs: number;
  readonly admin: boolean;
  readonly adminKey: string | null;
  /** `--webhook-key`, when given. */
  readonly webhookKey?: string | null;
  /** The pace of each tenant's delivery attempts over all replicas (`--delivery-rate-per-tenant`, by host), or null. */
  readonly deliveryPace: Rate | null;
}

/**
 * Claims the shared webhook key with this replica's (SET NX) and signs with the one Redis holds. At the start the
 * first replica's key wins: a later replica adopts it before any tenant exists (../webhook-key.ts made its candidate),
 * and one started with another `--webhook-key` is refused. After Redis lost its data it is this replica's key again
 * when this replica claims first, so receivers keep their secrets, or the key of a replica that started on the empty
 * Redis before: adopted, so every replica signs alike (the tenants, dropped by the loss, come back with secrets from
 * it). A key given with `--webhook-key` is never replaced: a replica that meets another then is told, and keeps its own.
 */
async function joinWebhookKey(
  link: RedisLink,
  key: string,
  store: Store,
  given: string | null,
  phase: { starting: boolean; url: string; warn: (message: string) => void },
): Promise<void> {
  const mine = store.webhookKeyInUse;
  const shared = await firstClaim(link.client, key, mine);
  if (shared === null || shared === mine) return;
  if (given !== null && phase.starting)
    throw new ReplicationConfigError(
      `Redis at ${new URL(phase.url).host} serves replicas started with another --webhook-key; start every replica with the same one (or none: the first replica's key is shared)`,
    );
  if (given !== null) {
    phase.warn(
      "Redis holds another webhook key than this replica's --webhook-key (another replica claimed it after Redis lost its data): start every replica with the same one",
    );
    return;
  }
  store.adoptWebhookKey(shared);
  if (!phase.starting)
    phase.warn(
      'this replica now signs webhooks with the shared webhook key another replica set after Redis lost its data',
    );
}

/** The settings that make replicas answer alike: a replica started with others is refused by Redis's first one. */
function sharedSettings(options: ReplicaOptions): Record<string, unknown> {
  return {
    format: 'opsapi-replication/1',
    seed: options.seed,
    skus: options.skus,
    jwtSecret: createHash('sha256').update(options.jwtSecret).digest('hex').slice(0, 16),
    retrySchedule: options.retrySchedule,
    rateLimit: options.rateLimit,
  };
}

/**
 * Connects this process to the Redis of a replicated mock (docs/DESIGN.md, "Shared sandbox", `--redis URL`). Throws a
 * `RedisUnavailableError` when Redis cannot be reached and a `ReplicationConfigError` when Redis already serves
 * replicas started with other settings.
 */
export async function startReplication(
  options: ReplicaOptions,
  url: string,
  store: Store,
  verifier: TokenVerifier,
  warn: (message: string) => void,
): Promise<Replication> {
  const link = await connectRedis(url, warn);
  const tell = throttled(warn, WARN_EVERY_MS);
  const keys = replicationKeys();
  const mine = JSON.stringify(sharedSettings(options));
  /** Whether Redis is claimed for the first time (the replica's start), not again after Redis lost its data. */
  let starting = true;
  /** First come first served: the config, an instance id and the webhook key; a replica with other settings is refused. */
  const claimRedis = async (): Promise<string> => {
    const theirs = await firstClaim(link.client, keys.config, mine);
    if (theirs !== mine)
      throw new ReplicationConfigError(
        `Redis at ${new URL(url).host} serves replicas started with other settings (${describe(theirs, mine)}); start every replica with the same --seed, --skus, --jwt-secret, --retry-schedule and --rate-limit, or use another Redis database`,
      );
    const instance = (await firstClaim(link.client, keys.instance, randomUUID())) ?? '';
    await joinWebhookKey(link, keys.webhookKey, store, options.webhookKey ?? null, { starting, url, warn: tell });
    starting = false;
    return instance;
  };
  // Every tenant is kept in Redis: evicting a copy from this process's memory drops nothing (no eviction Warning), and
  // the copy's next request brings it back from the log (the gate; nothing to load synchronously here).
  store.useLoader({ holds: () => true, load: () => undefined, orgs: () => [], apiKeys: () => [] });
  const replica = new Replica(link, keys, store, { lockMs: LOCK_MS, lockWaitMs: LOCK_WAIT_MS }, tell, claimRedis);
  try {
    await replica.join();
  } catch (error) {
    link.client.disconnect();
    if (error instanceof ReplicationConfigError) throw error;
    throw new RedisUnavailableError(`cannot use Redis at ${new URL(url).host}: ${(error as Error).message}`);
  }
  const poller = new ClaimPoller(
    link,
    keys,
    replica,
    {
      pollMs: POLL_MS,
      idleMs: IDLE_MS,
      leaseMs: options.deliveryTimeoutMs + 5_000,
      batch: 32,
      pace: options.deliveryPace,
    },
    tell,
  );
  return {
    gate: replicationGate({
      replica,
      store,
      verifier,
      rate: options.rateLimit,
      adminKey: options.admin ? options.adminKey : null,
      warn: tell,
      redis: link,
    }),
    schedulers: (clock, _timers, hooks, org) => new SharedScheduler(org, clock, hooks, replica, poller),
    refresh: (org) => replica.sync(org),
    start: (engine) => poller.start(engine),
    stats: async () => {
      const [due, claimed] = await Promise.all([
        link.run('opsapiDueCount', [keys.due], [keys.prefix]) as Promise<number>,
        link.client.zcard(keys.leases),
      ]);
      return { replica: replica.id, redis: redisLocation(url), due, claimed };
    },
    close: async () => {
      await poller.stop();
      replica.close();
      await link.client.quit().catch(() => link.client.disconnect());
    },
  };
}

/** Which shared settings differ, for the refusal. */
function describe(theirs: string | null, mine: string): string {
  if (theirs === null) return 'unknown';
  try {
    const a = JSON.parse(theirs) as Record<string, unknown>;
    const b = JSON.parse(mine) as Record<string, unknown>;
    const names = Object.keys({ ...a, ...b }).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    return `differing: ${names.join(', ')}`;
  } catch {
    return 'unreadable';
  }
}
