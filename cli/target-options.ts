import { InvalidArgumentError } from 'commander';
import type { ConformOptions } from '../conformance/context.js';
import { duration, flag, integer, orgName } from './options.js';
import { DEFAULT_PACE } from '../conformance/wire/pacer.js';
import { RUN_DEFAULTS } from '../conformance/orchestration/run-defaults.js';

function header(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf(':');
  if (at <= 0) throw new InvalidArgumentError('expected "Name: value"');
  return { ...previous, [value.slice(0, at).trim()]: value.slice(at + 1).trim() };
}

/** The options that name a target and its credentials, shared by `opsapi conform` and `opsapi learn`. */
export const targetOptions = {
  baseUrl: () =>
    flag(
      '--base-url <url>',
      'base URL of the target (its paths start with /v1); for https with a private CA set NODE_EXTRA_CA_CERTS',
      'BASE_URL',
    ),
  token: () => flag('--token <token>', 'access token with every permission (minted automatically on a mock)', 'TOKEN'),
  apiKey: () =>
    flag('--api-key <key>', 'API key of the main tenant (X-Api-Key), used when no token is given', 'API_KEY'),
  tokenCommand: () =>
    flag(
      '--token-command <cmd>',
      'shell command printing a fresh access token (run at start and when the token is refused)',
      'TOKEN_COMMAND',
    ),
  header: () =>
    flag('--header <name:value>', 'extra header for every request (repeatable)', 'HEADER').argParser(header),
  adminKey: () =>
    flag(
      '--admin-key <key>',
      "the mock's admin key (its --admin-key), sent in X-Admin-Key on /__mock/* calls only",
      'ADMIN_KEY',
    ),
  teamKey: () =>
    flag(
      '--team-key <key>',
      "your team's key on a shared mock (opsapi team create), sent in X-Team-Key on /__mock/* calls only: mints tokens for the team's orgs",
      'TEAM_KEY',
    ),
  org: () =>
    flag(
      '--org <org>',
      "tenant the run uses on a mock when no token names one (default: a fresh one); with --team-key, one of the team's orgs",
      'ORG',
    ).argParser(orgName),
  noMockAdmin: () =>
    flag('--no-mock-admin', 'do not use the mock admin API (/__mock/*) even when the target has it', 'NO_MOCK_ADMIN'),
  rateLimitMaxRequests: () =>
    flag('--rate-limit-max-requests <n>', 'most requests the rate-limit probe sends', 'RATE_LIMIT_MAX_REQUESTS')
      .default(RUN_DEFAULTS.rateLimitMaxRequests)
      .argParser(integer(1, 1_000_000)),
  rateLimitMaxSeconds: () =>
    flag(
      '--rate-limit-max-seconds <duration>',
      'longest the rate-limit probe runs (e.g. 90s or 2m; a bare number is seconds)',
      'RATE_LIMIT_MAX_SECONDS',
    )
      .default(RUN_DEFAULTS.rateLimitMaxSeconds)
      .argParser(duration({ unitless: 's', into: 's', min: 1, max: 3600 })),
  timeout: () =>
    flag('--timeout <duration>', 'timeout of each request (e.g. 500ms or 10s; a bare number is ms)', 'TIMEOUT')
      .default(RUN_DEFAULTS.timeoutMs)
      .argParser(duration({ unitless: 'ms', into: 'ms', min: 100, max: 600_000 })),
  concurrency: () =>
    flag('--concurrency <n>', 'requests in flight at once', 'CONCURRENCY')
      .default(RUN_DEFAULTS.concurrency)
      .argParser(integer(1, 256)),
  deliveryTimeout: (help: string) =>
    flag('--delivery-timeout <duration>', help, 'DELIVERY_TIMEOUT')
      .default(RUN_DEFAULTS.deliveryTimeoutMs)
      .argParser(duration({ unitless: 'ms', into: 'ms', min: 100, max: 600_000 })),
  pace: (help: string) => flag('--pace <n>', help, 'PACE').default(DEFAULT_PACE.limit).argParser(integer(0, 100_000)),
  webhookSecret: () =>
    flag(
      '--webhook-secret <secret>',
      'webhook signing secret (read from the mock when it has the admin API)',
      'WEBHOOK_SECRET',
    ),
  webhookHost: () => flag('--webhook-host <host>', 'address the receiver binds', 'WEBHOOK_HOST').default('127.0.0.1'),
  webhookPort: () =>
    flag('--webhook-port <port>', 'port the receiver binds (0: any)', 'WEBHOOK_PORT')
      .default(0)
      .argParser(integer(0, 65535)),
  webhookPublicUrl: () =>
    flag(
      '--webhook-public-url <url>',
      'URL the target delivers to, when the receiver is behind a tunnel or proxy',
      'WEBHOOK_PUBLIC_URL',
    ),
};

/** The values of the target and run options as commander reads them (shared by `conform` and `learn`). */
export interface TargetFlags
  extends Pick<
    ConformOptions,
    | 'token'
    | 'apiKey'
    | 'tokenCommand'
    | 'adminKey'
    | 'teamKey'
    | 'limitedToken'
    | 'otherTenantToken'
    | 'webhookSecret'
    | 'allowWrites'
    | 'webhooks'
    | 'rateLimitProbe'
    | 'webhookHost'
    | 'webhookPort'
    | 'webhookPublicUrl'
  > {
  // Named as their flags, or defaulted by commander, where the runner's options differ.
  header?: Record<string, string>;
  mockAdmin?: boolean;
  org?: string;
  concurrency: number;
  timeout: number;
  deliveryTimeout: number;
  pace: number;
  rateLimitMaxRequests: number;
  rateLimitMaxSeconds: number;
}

/**
 * The runner's options for a target, its credentials and the bounds of a run, from the options `conform` and `learn`
 * share (what only one of them takes, it adds itself).
 */
export function targetConformOptions(baseUrl: string, o: TargetFlags): ConformOptions {
  return {
    baseUrl,
    // Passed even when empty (an unset CI secret), so the runner can say so.
    ...(o.token !== undefined ? { token: o.token } : {}),
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    ...(o.tokenCommand ? { tokenCommand: o.tokenCommand } : {}),
    ...(o.header ? { headers: o.header } : {}),
    useMockAdmin: o.mockAdmin !== false,
    ...(o.adminKey ? { adminKey: o.adminKey } : {}),
    ...(o.teamKey ? { teamKey: o.teamKey } : {}),
    ...(o.org ? { mockOrg: o.org } : {}),
    ...(o.limitedToken ? { limitedToken: o.limitedToken } : {}),
    ...(o.otherTenantToken ? { otherTenantToken: o.otherTenantToken } : {}),
    ...(o.webhookSecret ? { webhookSecret: o.webhookSecret } : {}),
    allowWrites: o.allowWrites === true,
    webhooks: o.webhooks === true,
    rateLimitProbe: o.rateLimitProbe === true,
    ...(o.webhookHost ? { webhookHost: o.webhookHost } : {}),
    ...(o.webhookPort !== undefined ? { webhookPort: o.webhookPort } : {}),
    ...(o.webhookPublicUrl ? { webhookPublicUrl: o.webhookPublicUrl } : {}),
    concurrency: o.concurrency,
    timeoutMs: o.timeout,
    deliveryTimeoutMs: o.deliveryTimeout,
    pace: o.pace === 0 ? null : { limit: o.pace, windowMs: 1000 },
    rateLimitMaxRequests: o.rateLimitMaxRequests,
    rateLimitMaxSeconds: o.rateLimitMaxSeconds,
  };
}
