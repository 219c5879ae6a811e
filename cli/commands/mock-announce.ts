import type { RunningMock } from '../../mock/server.js';
import { DEFAULT_ORG, type MockOptions } from '../../mock/options.js';
import { mintToken } from '../../mock/auth/tokens.js';
import { adminClaims, limitedClaims } from '../../mock/auth/presets.js';
import { CacheBudget } from '../../mock/lists/cache-budget.js';
import { cacheBytesOf } from '../../mock/cache-memory.js';
import { redisLocation } from '../../mock/replication/keys.js';
import { notAdopted } from '../../mock/decisions/index.js';
import { decisionsOf, type DecisionFile } from '../../spec/decisions/index.js';
import { isLoopbackHost } from '../../mock/shared-mode.js';

/** Validity of the tokens printed at start: long enough for a working day or a CI job of any length (inferred). */
const PRINTED_TOKEN_SECONDS = 30 * 24 * 3600;

/**
 * What a started mock tells its user: the `--print-json` line (docs/DESIGN.md, "Testing API": `{url, port, adminToken,
 * limitedToken, webhookSecret, org}`), which a harness in any language or a Testcontainers wait strategy reads, and
 * the banner's facts. Tokens are for the default tenant and valid for 30 days.
 */
interface StartupFacts {
  readonly url: string;
  readonly port: number;
  readonly adminToken: string;
  readonly limitedToken: string;
  readonly webhookSecret: string;
  readonly org: string;
}

export async function startupFacts(running: RunningMock, jwtSecret: string): Promise<StartupFacts> {
  return {
    url: running.url,
    port: Number(new URL(running.url).port),
    adminToken: await mintToken(jwtSecret, adminClaims(DEFAULT_ORG), PRINTED_TOKEN_SECONDS),
    limitedToken: await mintToken(jwtSecret, limitedClaims(DEFAULT_ORG), PRINTED_TOKEN_SECONDS),
    webhookSecret: running.control.tenant(DEFAULT_ORG).webhookSecret(),
    org: DEFAULT_ORG,
  };
}

/** How many tenants the mock keeps, and what happens beyond (no acknowledged write is lost silently). */
function tenantsLine(options: Partial<MockOptions>): string {
  const max = options.maxTenants ?? 0;
  if (options.redis)
    return `up to ${max} in memory as a cache of Redis; beyond, the least recently used is dropped from memory and read back from Redis on its next request (nothing lost)`;
  return options.stateFile
    ? `up to ${max} in memory; beyond, the least recently used idle one is evicted and reloaded from --state on its next request (nothing lost)`
    : `up to ${max} in memory; beyond, the least recently used is evicted and its writes dropped (its next answer carries a Warning header; --state keeps them)`;
}

/** The list caches' byte budget (`--cache-mb`, or the default inferred from memory). */
function cachesLine(options: Partial<MockOptions>): string {
  const mb = (bytes: number) => `${Number((bytes / (1024 * 1024)).toFixed(2))} MB`;
  const budget = new CacheBudget(cacheBytesOf(options.cacheMb));
  return `${mb(budget.limitBytes)} over all tenants, ${mb(budget.shareBytes)} per tenant${options.cacheMb ? '' : ' (inferred from memory; --cache-mb sets it)'}`;
}

/**
 * What a mock started with `--decisions` says of them: how many it read, and one line for each decision that differs
 * from the contract and that the mock does not take on (a deployment's own record members, catalog texts, payloads),
 * so nobody mistakes the mock for the deployment at those points.
 */
function decisionLines(file: DecisionFile): string[] {
  const skipped = notAdopted(decisionsOf(file));
  return [
    `  decisions:      adopted ${file.decisions.length - skipped.length} (observed at ${file.target} on ${file.date})`,
    ...skipped.map((n) => `  not adopted:    ${n.id}: ${n.reason}`),
  ];
}

/**
 * Where the mock really listens: the address it bound (`0.0.0.0`, `::`: every interface), and the URL this machine
 * reaches it at when that differs (`running.url` names a loopback address for an unspecified one).
 */
function listeningLine(running: RunningMock): string {
  const bound = running.app.server.address();
  if (typeof bound !== 'object' || bound === null) return `opsapi mock listening on ${running.url}`;
  const host = bound.family === 'IPv6' || bound.address.includes(':') ? `[${bound.address}]` : bound.address;
  const at = `http://${host}:${bound.port}`;
  if (at === running.url) return `opsapi mock listening on ${at}`;
  const every = bound.address === '0.0.0.0' || bound.address === '::' ? 'every interface; ' : '';
  return `opsapi mock listening on ${at} (${every}from this machine: ${running.url})`;
}

/**
 * The credentials the banner shows. On a loopback host the default tenant's tokens and webhook secret, so `npm start`
 * is usable at once; on any other host none (docs/DESIGN.md, "Shared sandbox"): the banner lands in
 * terminals and container logs others read, and a token or secret there would open a tenant to them. Teams mint their
 * own tokens and read their secrets with their team key; `--print-json` still gives a harness its line.
 */
function credentialLines(options: Partial<MockOptions>, facts: StartupFacts): string[] {
  if (isLoopbackHost(options.host ?? '127.0.0.1'))
    return [
      `  tenant (org):   ${facts.org}`,
      `  admin token:    ${facts.adminToken}`,
      `  limited token:  ${facts.limitedToken}`,
      `  webhook secret: ${facts.webhookSecret}`,
    ];
  return [
    options.admin === false
      ? '  credentials:    none printed on a shared host; tokens are minted offline by whoever holds --jwt-secret (opsapi token)'
      : '  credentials:    none printed on a shared host; the operator creates teams (opsapi team create), each mints its tokens (opsapi token --team-key)',
  ];
}

/** The human banner. */
export function bannerLines(running: RunningMock, options: Partial<MockOptions>, facts: StartupFacts): string[] {
  return [
    listeningLine(running),
    `  docs:           ${running.url}/docs`,
    `  contract:       ${running.url}/openapi.json`,
    ...credentialLines(options, facts),
    `  rate limit:     ${options.rateLimit ? `${options.rateLimit.limit}/${options.rateLimit.windowMs}ms per tenant${options.redis ? ' over all replicas' : ''}` : 'off'}`,
    `  tenants:        ${tenantsLine(options)}`,
    `  list caches:    ${cachesLine(options)}`,
    ...(options.redis
      ? [
          `  replica of:     the mock on Redis at ${redisLocation(options.redis)}: tenants' writes, rate limits and the webhook schedule are shared by every process started with it`,
        ]
      : []),
    ...(options.faults?.size ? [`  FAULTS PLANTED: ${[...options.faults].join(', ')}`] : []),
    ...(options.decisions ? decisionLines(options.decisions) : []),
    ...(running.restored
      ? [
          `  state:          ${options.stateFile} (restored ${running.restored.tenants} tenants, ${running.restored.entities} records, ${running.restored.pendingNotifications} pending deliveries${running.restored.tornTail ? '; dropped a torn last line' : ''})`,
        ]
      : []),
    ...(options.admin
      ? [
          '  admin API:      /__mock/* (tokens, teams, reset, clock, events, fixtures, requests, webhook-secret, api-keys, coverage, client-checks); documented at /__mock/openapi.json',
          // Says that a key guards it, never the key: the banner lands in terminals and container logs.
          ...(options.adminKey
            ? ['  admin key:      required: every /__mock/* call but /__mock/health sends X-Admin-Key (--admin-key)']
            : []),
        ]
      : ['  admin API:      off']),
    `Try: curl -H "Authorization: Bearer <${isLoopbackHost(options.host ?? '127.0.0.1') ? 'admin token' : 'a token'}>" ${running.url}/v1/items/skus?pageSize=5`,
  ];
}
