import { startChild, type Child } from './process.js';
import { startOnFreePort } from './free-port.js';

/** A `redis-server` started for tests or a benchmark, on a free loopback port, without persistence to disk. */
interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly child: Child;
  /** Stops it (SIGTERM, then SIGKILL). */
  stop(): Promise<void>;
}

/** The binary (Debian's `redis-server` package; `.ci/run` installs it when missing). */
export const REDIS_SERVER = process.env.OPSAPI_REDIS_SERVER ?? 'redis-server';

/** Where and how to start it. */
interface RedisServerOptions {
  /** Default: a free loopback port. */
  readonly port?: number;
  /** A folder for an append-only file, so a restart on the same folder keeps the data (default: no persistence). */
  readonly dir?: string;
}

/**
 * Starts `redis-server` bound to 127.0.0.1 only, with `noeviction` (a replicated mock's log must never be evicted) and,
 * unless `dir` is given, no snapshot or append-only file (the data of a test lives as long as the test). Resolves
 * once it accepts connections.
 */
export function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  return options.port !== undefined
    ? startOn(options.port, options)
    : startOnFreePort((port) => startOn(port, options));
}

/** Starts it on `chosen`; stops it again when it does not get ready (a port taken, say). */
async function startOn(chosen: number, options: RedisServerOptions): Promise<RedisServer> {
  const persistence = options.dir
    ? ['--dir', options.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
    : ['--save', '', '--appendonly', 'no'];
  const child = startChild(
    REDIS_SERVER,
    ['--port', String(chosen), '--bind', '127.0.0.1', '--maxmemory-policy', 'noeviction', ...persistence],
    { name: `redis-server :${chosen}`, killOnExit: true },
  );
  try {
    await child.waitFor(/Ready to accept connections/, 10_000);
  } catch (error) {
    await child.stop(2000);
    throw error;
  }
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    child,
    stop: async () => {
      await child.stop(2000);
    },
  };
}
