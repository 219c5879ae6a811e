import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LRUCache } from 'lru-cache';
import { type Dispatcher, Pool } from 'undici';
import { boundedCache } from '../bounded-cache.js';
import { BLOCKED_CODE, type EndpointGuard } from './address.js';

/**
 * Receivers (origins), over all tenants, whose connection pool is kept between attempts; beyond it the least recently
 * used pool is closed (its attempts in flight end first) and built again at its next attempt, as undici's `Agent` did
 * for every receiver. Inferred: a tenant's subscriptions mostly point at one or two receivers, so this covers a shared
 * sandbox of a hundred teams and more; a pool that once ran N attempts at once keeps N clients (at most
 * `--delivery-concurrency`), so the bound also bounds what idle pools hold.
 */
const MAX_ORIGINS = 256;

/** Connections one pool opens to its receiver at most (the scheduler's per-receiver slots bound it before this does). */
const CONNECTIONS_PER_ORIGIN = 128;

/**
 * The undici connection pools of the webhook transport (./delivery.ts), one per receiver, in a module of its own so
 * that undici is loaded with the first delivery only: most mocks never deliver, and loading it was ~20 ms of every
 * start (measured on the compiled CLI). Keep-alive connections, no pipelining; with a `guard`, sockets connect only to
 * what it lets through.
 *
 * One `Pool` per origin kept here rather than undici's `Agent`: the Agent closes an origin's pool as soon as its last
 * connection closes, so every attempt to a receiver that closes its connection after answering (an HTTP/1.0 server,
 * `Connection: close`) built a new pool and client and destroyed them with an error whose stack was formatted: about
 * 1.2 ms of CPU per attempt against 0.7 ms with the pool kept (measured, 3,000 attempts to such a receiver on loopback,
 * the receiver's own work included). A pool kept keeps its clients, which reconnect for the next attempt.
 */
export class OriginPools {
  /** Pools being closed (evicted, or all of them at `close`), so that `close` resolves once they are. */
  private readonly closing = new Set<Promise<void>>();
  private readonly pools: LRUCache<string, Pool>;
  /** Every pool's options: with a guard, sockets connect only through its lookup (one function for all pools). */
  private readonly poolOptions: Pool.Options;

  /** `maxOrigins`: pools kept at most (MAX_ORIGINS unless a test asks for fewer). */
  constructor(guard: EndpointGuard | null, maxOrigins = MAX_ORIGINS) {
    this.poolOptions = {
      keepAliveTimeout: 10_000,
      connections: CONNECTIONS_PER_ORIGIN,
      pipelining: 1,
      ...(guard ? { connect: { lookup: guardedLookup(guard) } } : {}),
    };
    this.pools = boundedCache<string, Pool>(maxOrigins, (pool) => {
      const closed: Promise<void> = pool
        .close()
        .catch(() => undefined)
        .finally(() => this.closing.delete(closed));
      this.closing.add(closed);
    });
  }

  /** Pools kept now. */
  get size(): number {
    return this.pools.size;
  }

  dispatch(options: Dispatcher.DispatchOptions & { origin: string }, handler: Dispatcher.DispatchHandler): void {
    let pool = this.pools.get(options.origin);
    if (!pool) {
      pool = new Pool(options.origin, this.poolOptions);
      this.pools.set(options.origin, pool);
    }
    pool.dispatch(options, handler);
  }

  /** Closes every pool (attempts in flight end first). */
  async close(): Promise<void> {
    this.pools.clear();
    await Promise.all(this.closing);
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that refuses the addresses the guard refuses: it resolves every address of the host and fails
 * with `OPSAPI_BLOCKED_ENDPOINT` when any is refused, so the socket can only use checked addresses.
 */
const guardedLookup = (guard: EndpointGuard) =>
  function guardedLookup(
    hostname: string,
    options: { family?: number | string; all?: boolean; hints?: number },
    callback: LookupCallback,
  ): void {
    const family =
      options.family === 'IPv4'
        ? 4
        : options.family === 'IPv6'
          ? 6
          : typeof options.family === 'number'
            ? options.family
            : 0;
    dnsLookup(
      hostname,
      { family, all: true, ...(options.hints !== undefined ? { hints: options.hints } : {}) },
      (error, addresses) => {
        if (error) return callback(error, []);
        const list = addresses as LookupAddress[];
        if (list.length === 0 || list.some((a) => guard.refuses(hostname, a.address))) {
          const blocked: NodeJS.ErrnoException = new Error(
            `${hostname} resolves to a private, loopback or reserved address; refused (--allow-private-endpoints)`,
          );
          blocked.code = BLOCKED_CODE;
          return callback(blocked, []);
        }
        if (options.all) return callback(null, list);
        const first = list[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
    );
  };
