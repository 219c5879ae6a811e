import { DEFAULT_SEED, DEFAULT_SKUS } from '../fixtures/seed/defaults.js';
import type { DecisionFile } from '../spec/decisions/index.js';
import { FAULT_NAMES, noPlantedFaults, parseFaults, type PlantedFaultsOption } from './faults/option.js';
import { DEFAULT_LIST_ENGINE, type NullOrder, type TextCase } from './lists/engine-options.js';
import {
  formatLatency,
  formatRate,
  formatRetrySchedule,
  parseLatency,
  parseRateOption,
  parseRetrySchedule,
} from './options/grammars.js';
import {
  duration,
  integer,
  list,
  type MockOption,
  onOff,
  option,
  parsed,
  path,
  text,
  type ValueOfKind,
} from './options/kinds.js';
import { DEFAULT_RATE, type Rate } from './rate-limit.js';
import { TENANT_BOUND_OPTIONS } from './options/tenant-bounds.js';
import { DELIVERY_SHARE_OPTIONS } from './options/delivery-shares.js';
import { DEFAULT_KEY_FAILURE_RATE, parseKeyFailureRate } from './options/key-failure-rate.js';
import { NETWORK_OPTIONS } from './options/network-table.js';

/** A planted fault's name, as the faults layer's option holds it (mock/faults/option.ts). */
type FaultName = PlantedFaultsOption['faults'] extends ReadonlySet<infer F> ? F : never;

/** Default JWT secret of the local mock (published in the README: a mock others reach needs its own, mock/shared-mode.ts). */
export const DEFAULT_JWT_SECRET = 'opsapi-local-mock-secret-change-me';

/**
 * Webhook key of a mock on a loopback host (published, like the JWT secret above; elsewhere mock/webhook-key.ts makes
 * one). The same string the local mock's webhook secrets always derived from, so a local receiver's secret is the one
 * it always had.
 */
export const DEFAULT_WEBHOOK_KEY = 'opsapi-local-mock-secret-change-me';

/** The organisation whose tokens are printed at start. */
export const DEFAULT_ORG = 'demo';

/** Default retry schedule in seconds after the first attempt (docs/DESIGN.md, "Defaults for what the reference leaves open"). */
const DEFAULT_RETRY_SCHEDULE: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/**
 * Every option of the mock, once: its flag of `opsapi mock`, `OPSAPI_*` variable, name among `startMock`'s options,
 * kind of value with its parser and bounds, default and help line. The CLI's flags and `--help`
 * (cli/commands/mock-flags.ts), `startMock`'s checked options (testing/options.ts), `MockOptions` below and the
 * README's table of options (cli/test/mock-options-doc.ts) are all read from it. Inferred: the reference has no
 * such settings; the bounds only keep a mock usable (a port is 16 bits, a seed a 31-bit integer).
 */
export const MOCK_OPTIONS = {
  port: option({
    flag: '--port <port>',
    env: 'PORT',
    help: 'port to listen on',
    value: integer(0, 65535),
    default: 4010,
    startMockDefault: 0,
  }),
  host: option({
    flag: '--host <host>',
    env: 'HOST',
    help: 'address to bind',
    value: text('an address to bind, e.g. 127.0.0.1'),
    default: '127.0.0.1',
  }),
  seed: option({
    flag: '--seed <n>',
    env: 'SEED',
    help: 'seed of the generated data',
    value: integer(0, 2 ** 31 - 1),
    default: DEFAULT_SEED,
  }),
  skus: option({
    flag: '--skus <n>',
    env: 'SKUS',
    help: 'SKUs per tenant',
    value: integer(1, 1_000_000),
    default: DEFAULT_SKUS,
  }),
  /** null: rate limiting off. */
  rateLimit: option({
    flag: '--rate-limit <rate>',
    env: 'RATE_LIMIT',
    help: `per-tenant rate limit, N/window (${formatRate(DEFAULT_RATE)}) or off`,
    value: parsed<Rate | null>({
      parse: parseRateOption,
      format: formatRate,
      expects: `a rate N/window ('300/1s', '100/500ms', '1000/1m') or 'off'`,
    }),
    default: DEFAULT_RATE,
  }),
  /** Added delay per request, uniform in [min, max] ms. */
  latency: option({
    flag: '--latency <range>',
    env: 'LATENCY',
    help: 'added latency per request, e.g. 50-200ms or 1s (a bare number is ms)',
    value: parsed<{ min: number; max: number } | null>({
      parse: parseLatency,
      format: formatLatency,
      expects: `a latency range such as '50-200ms', '100ms' or '1s', or 'off'`,
    }),
    default: null,
  }),
  admin: option({
    flag: '--no-admin',
    env: 'NO_ADMIN',
    help: 'disable the /__mock admin API',
    value: onOff('a boolean (false: no /__mock admin API, like --no-admin)'),
    default: true,
  }),
  /**
   * The key every `/__mock/*` call but health must send in `X-Admin-Key` (docs/DESIGN.md, "Shared sandbox");
   * null: the admin API answers anyone who reaches it (allowed on a loopback host only, mock/shared-mode.ts).
   */
  adminKey: option({
    flag: '--admin-key <key>',
    env: 'ADMIN_KEY',
    help: 'key every /__mock/* call but health must send in X-Admin-Key (16+ characters; required on a non-loopback --host unless --no-admin)',
    value: text<string | null>('a key of 16 or more characters (X-Admin-Key)'),
    default: null,
  }),
  jwtSecret: option({
    flag: '--jwt-secret <secret>',
    env: 'JWT_SECRET',
    help: 'HS256 secret of access tokens (32+ characters on a non-loopback --host)',
    value: text('a non-empty string'),
    default: DEFAULT_JWT_SECRET,
  }),
  maxTenants: option({
    flag: '--max-tenants <n>',
    env: 'MAX_TENANTS',
    help: 'tenants kept in memory (least recently used evicted)',
    value: integer(1, 1_000_000),
    default: 1000,
  }),
  /**
   * Byte budget of the list engine's caches over all tenants, MB (each tenant may hold a quarter of it); null:
   * inferred from the memory available (mock/cache-memory.ts `defaultCacheBytes`).
   */
  cacheMb: option({
    flag: '--cache-mb <n>',
    env: 'CACHE_MB',
    help: 'list cache budget in MB over all tenants, a quarter of it per tenant',
    // Megabytes, at most 1 TB.
    value: integer<number | null>(1, 1_048_576, 'MB'),
    default: null,
    unset: '1/8 of memory, at most 512',
  }),
  /** Delay before each automatic attempt, in seconds: the first from the notification's creation, each next one from the previous attempt's due time. */
  retrySchedule: option({
    flag: '--retry-schedule <list>',
    env: 'RETRY_SCHEDULE',
    help: 'webhook attempt delays, e.g. 0,5s,5m,2h (a bare number is seconds)',
    value: parsed<readonly number[]>({
      parse: parseRetrySchedule,
      format: formatRetrySchedule,
      expects: `delays such as '0,5s,5m,2h' or an array of seconds like [0, 5, 300]`,
      numbers: { min: 0, item: 'a delay in seconds >= 0', expects: 'at least one delay' },
    }),
    default: DEFAULT_RETRY_SCHEDULE,
  }),
  /** Per-attempt timeout of a webhook delivery, ms. */
  deliveryTimeoutMs: option({
    flag: '--delivery-timeout <duration>',
    env: 'DELIVERY_TIMEOUT',
    name: 'deliveryTimeout',
    help: 'per-attempt webhook timeout (e.g. 500ms or 10s; a bare number is ms)',
    value: duration({ unitless: 'ms', into: 'ms', min: 1, max: 600_000 }),
    default: 10_000,
  }),
  /** Most deliveries in flight at once over all tenants. */
  deliveryConcurrency: option({
    flag: '--delivery-concurrency <n>',
    env: 'DELIVERY_CONCURRENCY',
    help: 'webhook deliveries in flight at most',
    value: integer(1, 10_000),
    default: 64,
  }),
  /** Most notifications kept per tenant (oldest finished ones forgotten beyond it). */
  maxNotifications: option({
    flag: '--max-notifications <n>',
    env: 'MAX_NOTIFICATIONS',
    help: 'notifications kept per tenant (oldest finished ones forgotten)',
    value: integer(10, 10_000_000),
    default: 10_000,
  }),
  /**
   * Refuse webhook endpoints that resolve to private, loopback or reserved addresses (the SSRF guard), on a loopback
   * host too: off loopback the guard is on unless `--allow-private-endpoints` lifts it.
   */
  blockPrivateEndpoints: option({
    flag: '--block-private-endpoints',
    env: 'BLOCK_PRIVATE_ENDPOINTS',
    help: 'refuse webhook endpoints resolving to private, loopback or reserved addresses on a loopback --host too (always on elsewhere)',
    value: onOff(),
    default: false,
  }),
  /** Largest request body accepted, bytes. */
  bodyLimit: option({
    flag: '--body-limit <bytes>',
    env: 'BODY_LIMIT',
    help: 'largest request body; an operation whose schema bounds its body reads at most twice what a valid one can be',
    value: integer(1024, 100 * 1024 * 1024, 'bytes'),
    default: 1024 * 1024,
  }),
  /** Planted faults (empty: the faithful mock); declared by the planted-fault layer, mock/faults/option.ts. */
  faults: option({
    flag: '--fault <name>',
    env: 'FAULT',
    help: `plant a fault (repeatable): ${FAULT_NAMES}`,
    value: list<FaultName, ReadonlySet<FaultName>>({
      parse: parseFaults,
      collect: (names) => new Set(names),
      expects: 'an array of planted fault names',
      item: 'a planted fault name',
      refusal: `is not a planted fault; known: ${FAULT_NAMES}`,
    }),
    default: noPlantedFaults().faults,
  }),
  /**
   * Decisions observed at a real deployment (`opsapi learn`), adopted instead of the contract's inferred ones; its
   * `text-case` decision sets `textCase`. Absent: the contract's inferences.
   */
  decisions: option({
    flag: '--decisions <file>',
    env: 'DECISIONS',
    help: 'adopt the decisions observed at a real deployment (a file of opsapi learn --out) instead of the inferred ones',
    value: path<DecisionFile | undefined>('the path of a decision file (opsapi learn --out)'),
    default: undefined,
  }),
  /** Persist all state to this file (null: in memory). */
  stateFile: option({
    flag: '--state <file>',
    env: 'STATE',
    name: 'state',
    help: 'persist all state to this file (journal + snapshot) and restore it on start',
    value: path<string | null>('a file path'),
    default: null,
  }),
  /**
   * Redis of a replicated mock (docs/DESIGN.md, "Shared sandbox"): tenants' writes, rate-limit buckets and the webhook
   * schedule live there, so every process started with the same URL answers as one mock. null: one process.
   */
  redis: option({
    flag: '--redis <url>',
    env: 'REDIS',
    help: 'one replica of a mock whose state lives in Redis (redis://host:port[/db]): run N of them behind a load balancer',
    value: text<string | null>(
      'a Redis URL, redis://host:port[/db] (this mock is then one replica of a mock on that Redis)',
      '^rediss?://',
    ),
    default: null,
  }),
  /**
   * The key tenants' webhook signing secrets derive from (docs/DESIGN.md, "Shared sandbox"), never
   * the JWT secret: holding the one must not give the other. null: on a loopback host `DEFAULT_WEBHOOK_KEY` (local
   * receivers keep their secret across restarts); elsewhere random at first start, kept with `--state` and in Redis
   * (mock/webhook-key.ts).
   */
  webhookKey: option({
    flag: '--webhook-key <key>',
    env: 'WEBHOOK_KEY',
    help: "key the tenants' webhook signing secrets derive from (default: fixed on a loopback --host; elsewhere random, kept with --state and in Redis)",
    value: text<string | null>('a key of 16 or more characters'),
    default: null,
    unset: 'fixed on loopback, else random and kept',
  }),
  // Per-tenant bounds of a shared sandbox: subscriptions, API keys, Pending notifications, attempts, request journal.
  ...TENANT_BOUND_OPTIONS,
  // Each tenant's share of the delivery slots, and the rest after an attempt that reached no receiver.
  ...DELIVERY_SHARE_OPTIONS,
  // The network options: the SSRF guard's exceptions, timeouts and the connection cap, the admin API's browser guard.
  ...NETWORK_OPTIONS,
  /**
   * Longest lifetime of a token a team mints with its key, and the lifetime of one that names none (docs/DESIGN.md,
   * "Team credentials (shared sandbox)"). Inferred: a day covers a CI run or a working day, and a leaked team token
   * then ends within it even if nobody revokes the team.
   */
  teamTokenLifetime: option({
    flag: '--team-token-lifetime <duration>',
    env: 'TEAM_TOKEN_LIFETIME',
    help: 'longest lifetime (and the default) of a token minted with a team key, e.g. 1h or 24h (a bare number is seconds)',
    value: duration({ unitless: 's', into: 's', min: 60, max: 86_400 }),
    default: 86_400,
  }),
  /**
   * Refused admin or team keys one source address may send before the next is answered 429, refilled over the window
   * (a token bucket per source). Inferred: 10 lets a mistyped key be corrected at once; refilled at 1 per second,
   * guessing a 16-character key stays hopeless.
   */
  keyFailureRate: option({
    flag: '--key-failure-rate <rate>',
    env: 'KEY_FAILURE_RATE',
    help: 'refused admin or team keys per source address before 429, N/window (refilled over the window)',
    value: parsed<Rate>({
      parse: parseKeyFailureRate,
      format: formatRate,
      expects: `a rate N/window such as '10/10s'`,
    }),
    default: DEFAULT_KEY_FAILURE_RATE,
  }),
  /**
   * Behind a load balancer, a refused key counts against the last address of `X-Forwarded-For` (the one the balancer
   * appended) instead of the balancer's own address. Off by default: without a balancer that header is the client's word.
   */
  trustProxy: option({
    flag: '--trust-proxy',
    env: 'TRUST_PROXY',
    help: 'take the source of refused-key throttling from the last X-Forwarded-For address (behind a load balancer)',
    value: onOff(),
    default: false,
  }),
  /**
   * Journal lines of `--state` after which it is compacted into the snapshot, beside the traffic (at least as many as
   * the entities kept, so the files stay within about twice the live state; docs/DESIGN.md, "Shared sandbox").
   */
  stateCompactLines: option({
    flag: '--state-compact-lines <n>',
    env: 'STATE_COMPACT_LINES',
    help: 'journal lines of --state after which it is compacted (at least the entities kept)',
    value: integer(100, 100_000_000),
    default: 20_000,
  }),
  /** Log each request to stderr. */
  logRequests: option({
    flag: '--log-requests',
    env: 'LOG_REQUESTS',
    help: 'log every request to stderr',
    value: onOff(),
    default: false,
  }),
} satisfies Record<string, MockOption>;

type Table = typeof MOCK_OPTIONS;

/** The field of `MockOptions` an option sets. */
export type MockOptionName = keyof Table;

/** The value each option holds, as the mock reads it. */
type Values = { [K in keyof Table]: ValueOfKind<Table[K]['value']> };

/** Options without a default (their absence means "not given"). */
type Unset = { [K in MockOptionName]: undefined extends Values[K] ? K : never }[MockOptionName];

/**
 * Everything the mock server can be told: a field per option of `MOCK_OPTIONS` (whose comments document them), and
 * the list engine's settings, which no flag sets (an adopted decision does).
 */
export interface MockOptions extends Omit<Values, Unset>, Partial<Pick<Values, Unset>>, PlantedFaultsOption {
  /** Whether Contains, StartsWith and EndsWith compare case-sensitively (list engine option; inferred: insensitive). */
  textCase: TextCase;
  /** Whether Equals compares text regardless of case (list engine option; inferred: sensitive, i.e. exact). */
  equalsCase: TextCase;
  /** Where nulls sort ascending (list engine option; inferred: first); set by an adopted `null-order` decision. */
  nullOrder?: NullOrder;
}

/** Where `opsapi mock` listens by default: the default base URL of the commands that talk to it. */
export const DEFAULT_MOCK_URL = `http://${MOCK_OPTIONS.host.default}:${MOCK_OPTIONS.port.default}`;

/** The embedded defaults: `npm start` needs no configuration. */
export function defaultOptions(): MockOptions {
  const given = Object.entries(MOCK_OPTIONS).filter(([, o]) => o.default !== undefined);
  return {
    ...(Object.fromEntries(given.map(([name, o]) => [name, o.default])) as Omit<Values, Unset>),
    // A fresh set on every call, as the faults layer hands it out.
    ...noPlantedFaults(),
    textCase: DEFAULT_LIST_ENGINE.textCase,
    equalsCase: DEFAULT_LIST_ENGINE.equalsCase,
  };
}
