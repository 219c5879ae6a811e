import { durationHint, parseDuration } from '../common/duration.js';
import { DEFAULT_SEED, DEFAULT_SKUS } from '../fixtures/seed/index.js';
import type { DecisionFile } from '../spec/decisions/index.js';
import { noPlantedFaults, type PlantedFaultsOption } from './faults/option.js';
import { DEFAULT_LIST_ENGINE, type NullOrder, type TextCase } from './lists/engine-options.js';
import { DEFAULT_RATE, type Rate } from './rate-limit.js';

/** Default JWT secret of the local mock (documented in the README; override with --jwt-secret for shared use). */
export const DEFAULT_JWT_SECRET = 'opsapi-local-mock-secret-change-me';

/** The organisation whose tokens are printed at start. */
export const DEFAULT_ORG = 'demo';

/** Default retry schedule in seconds after the first attempt (docs/DESIGN.md, "Defaults for what the reference leaves open": immediately, 5s, 5m, 30m, 2h, 5h, 10h, 10h). */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/**
 * Everything the mock server can be told; `cli` fills it from flags and `OPSAPI_*` env. The `--fault` option is
 * declared by the planted-fault layer (mock/faults/option.ts), whose only reader is the composition root.
 */
export interface MockOptions extends PlantedFaultsOption {
  host: string;
  port: number;
  seed: number;
  skus: number;
  /** null: rate limiting off. */
  rateLimit: Rate | null;
  /** Added delay per request, uniform in [min, max] ms. */
  latency: { min: number; max: number } | null;
  admin: boolean;
  /**
   * The key every `/__mock/*` call but health must send in `X-Admin-Key` (`--admin-key`, docs/DESIGN.md, "Shared sandbox");
   * null: the admin API answers anyone who reaches it (allowed on a loopback host only, mock/shared-mode.ts).
   */
  adminKey: string | null;
  jwtSecret: string;
  maxTenants: number;
  /**
   * Byte budget of the list engine's caches over all tenants, MB (`--cache-mb`; each tenant may hold a quarter of
   * it); null: inferred from the memory available (mock/cache-memory.ts `defaultCacheBytes`).
   */
  cacheMb: number | null;
  /** Delay before each automatic attempt, in seconds: the first from the notification's creation, each next one from the previous attempt's due time. */
  retrySchedule: readonly number[];
  /** Per-attempt timeout of a webhook delivery, ms. */
  deliveryTimeoutMs: number;
  /** Most notifications kept per tenant (oldest finished ones forgotten beyond it). */
  maxNotifications: number;
  /** Most deliveries in flight at once over all tenants. */
  deliveryConcurrency: number;
  /** Refuse webhook endpoints that resolve to private or loopback addresses (SSRF guard). */
  blockPrivateEndpoints: boolean;
  /** Largest request body accepted, bytes. */
  bodyLimit: number;
  /** Persist all state to this file (null: in memory). */
  stateFile: string | null;
  /**
   * Redis of a replicated mock (`--redis URL`, docs/DESIGN.md, "Shared sandbox"): tenants' writes, rate-limit buckets and the
   * webhook schedule live there, so every process started with the same URL answers as one mock. null: one process.
   */
  redis: string | null;
  /** Log each request to stderr. */
  logRequests: boolean;
  /** Whether Contains, StartsWith and EndsWith compare case-sensitively (list engine option; inferred: insensitive). */
  textCase: TextCase;
  /** Whether Equals compares text regardless of case (list engine option; inferred: sensitive, i.e. exact). */
  equalsCase: TextCase;
  /** Where nulls sort ascending (list engine option; inferred: first); set by an adopted `null-order` decision. */
  nullOrder?: NullOrder;
  /**
   * Decisions observed at a real deployment (`opsapi learn`), adopted instead of the contract's inferred ones
   * (`--decisions`); its `text-case` decision sets `textCase`. Absent: the contract's inferences.
   */
  decisions?: DecisionFile;
}

/** The embedded defaults: `npm start` needs no configuration. */
export function defaultOptions(): MockOptions {
  return {
    host: '127.0.0.1',
    port: 4010,
    seed: DEFAULT_SEED,
    skus: DEFAULT_SKUS,
    rateLimit: DEFAULT_RATE,
    latency: null,
    admin: true,
    adminKey: null,
    jwtSecret: DEFAULT_JWT_SECRET,
    maxTenants: 1000,
    cacheMb: null,
    ...noPlantedFaults(),
    retrySchedule: DEFAULT_RETRY_SCHEDULE,
    deliveryTimeoutMs: 10_000,
    deliveryConcurrency: 64,
    maxNotifications: 10_000,
    blockPrivateEndpoints: false,
    bodyLimit: 1024 * 1024,
    stateFile: null,
    redis: null,
    logRequests: false,
    textCase: DEFAULT_LIST_ENGINE.textCase,
    equalsCase: DEFAULT_LIST_ENGINE.equalsCase,
  };
}

/**
 * Parses a latency: `off`, one duration (`100ms`, `1s`) or a range of two (`50-200ms`, `0.2-1s`, `500ms-2s`), in the
 * grammar of common/duration.ts with milliseconds for a bare number. A low end without a unit takes the high end's
 * (`50-200ms` is 50 to 200 ms, as it always was).
 */
export function parseLatency(
  text: string,
): { ok: true; value: { min: number; max: number } | null } | { ok: false; error: string } {
  const t = text.trim().toLowerCase();
  if (t === 'off' || t === '0' || t === '') return { ok: true, value: null };
  const invalid = (why: string) => ({ ok: false as const, error: `invalid latency "${text}": ${why}` });
  const usage = `use e.g. 50-200ms, 100ms or 1s (${durationHint('ms')})`;
  const ends = t.split('-').map((end) => end.trim());
  if (ends.length > 2) return invalid(usage);
  const high = parseDuration(ends[ends.length - 1] ?? '', { unitless: 'ms' });
  if (!high.ok) return invalid(usage);
  let min = high.ms;
  if (ends.length === 2) {
    const low = parseDuration(ends[0] ?? '', { unitless: high.unit ?? 'ms' });
    if (!low.ok) return invalid(usage);
    min = low.ms;
  }
  if (high.ms < min) return invalid('the maximum is below the minimum');
  return { ok: true, value: { min, max: high.ms } };
}

/**
 * Parses a retry schedule: comma-separated delays in the grammar of common/duration.ts (`0,5s,5m,30m,2h,1d`),
 * seconds for a bare number; the delays come back in seconds.
 */
export function parseRetrySchedule(text: string): { ok: true; value: number[] } | { ok: false; error: string } {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const part of parts) {
    const delay = parseDuration(part, { unitless: 's' });
    if (!delay.ok)
      return {
        ok: false,
        error: `invalid retry schedule entry "${part}": use durations like 0,5s,5m,2h (${durationHint('s')})`,
      };
    out.push(delay.ms / 1000);
  }
  if (out.length === 0) return { ok: false, error: 'the retry schedule needs at least one attempt' };
  return { ok: true, value: out };
}
