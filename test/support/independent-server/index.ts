import { randomBytes } from 'node:crypto';
import { ALL_PERMISSIONS, TokenAuthority } from './auth.js';
import { parseFaults } from './faults.js';
import { DEFAULT_RATE_LIMIT, type RateLimit } from './rate-limit.js';
import { Shell } from './server.js';
import { TenantRegistry } from './tenants.js';
import { DEFAULT_RETRY_DELAYS_MS, Deliverer } from './webhooks.js';
import type { DataFile } from './world.js';

/**
 * A second server of the Operations Platform API, written from the API reference alone, for certifying the
 * conformance runner against a server it did not write.
 */
export { INDEPENDENT_FAULTS } from './faults.js';
export type { DataFile } from './world.js';

interface IndependentServerOptions {
  /** Default 0 (any free loopback port); binds 127.0.0.1. */
  port?: number;
  /** Names of INDEPENDENT_FAULTS; an unknown name throws. */
  faults?: Iterable<string>;
  /** Fixed window per tenant; default 1200 requests per 10 s; null turns it off. */
  rateLimit?: RateLimit | null;
  /**
   * Delays of the automatic delivery attempts of a notification: the first after the event, each next one after the
   * attempt before it; default 0, 1, 2 and 4 s. A notification whose attempts all fail ends in Failure after the last.
   */
  retryDelaysMs?: readonly number[];
  /** Lifetime of the tokens of `tenant()`, default 3600. */
  tokenLifetimeSeconds?: number;
}

export interface IndependentTenant {
  org: string;
  /** Every permission this server knows. */
  token: string;
  /** No permission at all. */
  limitedToken: string;
  webhookSecret: string;
  data: DataFile;
  tokenWith(permissions: string[], lifetimeSeconds?: number): Promise<string>;
}

export interface IndependentServer {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  tenant(org: string): Promise<IndependentTenant>;
  /**
   * Switches the planted faults at run time (an unknown name throws, and nothing changes): tests that prove a runner
   * catches each fault share one server and turn one fault on at a time.
   */
  setFaults(names: Iterable<string>): void;
  /** Stops timers and deliveries, closes sockets. */
  close(): Promise<void>;
}

export async function startIndependentServer(options: IndependentServerOptions = {}): Promise<IndependentServer> {
  // One set, read by every part at each request: `setFaults` changes it in place.
  const faults = new Set(parseFaults(options.faults));
  const rateLimit = options.rateLimit === undefined ? DEFAULT_RATE_LIMIT : options.rateLimit;
  if (rateLimit && (!(rateLimit.limit >= 1) || !(rateLimit.windowMs >= 1)))
    throw new Error('rateLimit needs limit >= 1 and windowMs >= 1');
  const lifetime = options.tokenLifetimeSeconds ?? 3600;
  // Separate secrets for access tokens and for deriving the tenants' webhook secrets.
  const tokens = new TokenAuthority(randomBytes(32));
  const tenants = new TenantRegistry(randomBytes(32));
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (retryDelaysMs.length === 0 || !retryDelaysMs.every((d) => d >= 0))
    throw new Error('retryDelaysMs needs at least one delay, none negative');
  const deliverer = new Deliverer(faults, retryDelaysMs);
  const shell = new Shell({ faults, rateLimit, tokens, tenants, deliverer });
  const url = await shell.listen(options.port ?? 0);
  let closing: Promise<void> | undefined;

  return {
    url,
    async tenant(org: string): Promise<IndependentTenant> {
      if (org === '') throw new Error('an organisation code cannot be empty');
      const state = tenants.get(org);
      return {
        org,
        token: await tokens.sign(org, ALL_PERMISSIONS, lifetime),
        limitedToken: await tokens.sign(org, [], lifetime),
        webhookSecret: state.webhookSecret,
        data: structuredClone(state.data),
        tokenWith: (permissions, lifetimeSeconds = lifetime) => tokens.sign(org, permissions, lifetimeSeconds),
      };
    },
    setFaults(names: Iterable<string>): void {
      const next = parseFaults(names);
      faults.clear();
      for (const name of next) faults.add(name);
    },
    close(): Promise<void> {
      closing ??= Promise.all([deliverer.close(), shell.close()]).then(() => undefined);
      return closing;
    },
  };
}
