import { Redis } from 'ioredis';
import { APPEND, CLAIM, COMPLETE, DUE_COUNT, GATE, RESET, UNLOCK } from './scripts.js';

/** The scripts of ./scripts.ts and the number of KEYS each takes. */
const SCRIPTS = {
  opsapiGate: { lua: GATE, keys: 6 },
  opsapiAppend: { lua: APPEND, keys: 9 },
  opsapiUnlock: { lua: UNLOCK, keys: 1 },
  opsapiReset: { lua: RESET, keys: 5 },
  opsapiClaim: { lua: CLAIM, keys: 3 },
  opsapiComplete: { lua: COMPLETE, keys: 4 },
  opsapiDueCount: { lua: DUE_COUNT, keys: 1 },
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/** A connected client with the scripts defined (sent by SHA, loaded on first use). */
export interface RedisLink {
  readonly client: Redis;
  /** `host:port` of the Redis, without the credentials its URL may carry (said in 503 details and warnings). */
  readonly address: string;
  /** Whether the connection is up now (a command that failed while it is not failed for want of Redis). */
  reachable(): boolean;
  /** Runs one of the scripts; rejects when Redis is unreachable (no offline queue: callers answer 503 at once). */
  run(script: ScriptName, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown>;
}

/**
 * Stores `value` under `key` unless a value is there already (SET NX), and answers the value there now: the first
 * claimant's (null only if the key vanished meanwhile, a flush). How replicas agree on what the first one chose.
 */
export async function firstClaim(client: Redis, key: string, value: string): Promise<string | null> {
  await client.set(key, value, 'NX');
  return client.get(key);
}

/** `host:port` of a Redis URL (6379 when the URL names no port): never its user or password. */
function redisAddress(url: URL): string {
  return `${url.hostname}:${url.port || '6379'}`;
}

/** Why a connection failed, as one line. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/**
 * Connects to `url` (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS). Settings (inferred): no offline
 * queue and one retry per command, so a replica that lost Redis fails its requests at once (503) instead of queueing
 * them and answering from stale memory; reconnection goes on in the background (every 0.2 s to 2 s) and requests
 * succeed again as soon as it is back.
 */
export async function connectRedis(url: string, onOutage: (message: string) => void): Promise<RedisLink> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUnavailableError(`--redis "${url}" is not a URL (use redis://host:port[/db])`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new RedisUnavailableError(`--redis "${url}" must start with redis:// or rediss://`);
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    // Commands issued in the same turn of the event loop leave in one write (measured: socket writes led the profile).
    enableAutoPipelining: true,
  });
  // Outages are told once each, and only after the first connection (a refused start says it in its own words).
  let down = true;
  let lastError: Error | undefined;
  client.on('error', (error: Error) => {
    lastError = error;
    if (down) return;
    down = true;
    onOutage(`Redis at ${parsed.host} is unreachable (${error.message}); answering 503 until it is back`);
  });
  client.on('ready', () => {
    down = false;
  });
  for (const [name, { lua, keys }] of Object.entries(SCRIPTS)) client.defineCommand(name, { numberOfKeys: keys, lua });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    // ioredis rejects with "Connection is closed"; the socket's own error (ECONNREFUSED, ENOTFOUND...) says why.
    const why = lastError?.message ?? (error as Error).message;
    throw new RedisUnavailableError(`cannot reach Redis at ${parsed.host}: ${why}`);
  }
  const commands = client as unknown as Record<ScriptName, (...args: (string | number)[]) => Promise<unknown>>;
  return {
    client,
    address: redisAddress(parsed),
    reachable: () => client.status === 'ready',
    run: (script, keys, args) => commands[script](...keys, ...args),
  };
}
