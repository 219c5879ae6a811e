import { TimedClient } from '../wire/check-clock.js';
import type { DecisionFile } from '../../spec/decisions/index.js';
import { matchOperation } from '../contract/contract.js';
import type { RuleEnv } from '../rules/index.js';
import { selects, type CheckDef, type ConformOptions, type Credentials, type RunContext } from '../context.js';
import { CredentialGuard, tokenFromCommand } from './credential-guard.js';
import { NoCredentialError, TargetUnreachableError, UsageError } from '../errors.js';
import { DEFAULT_PACE } from '../wire/pacer.js';
import { paceGroupOf } from '../wire/pace-group.js';
import { startRunReceiver } from '../wire/run-receiver.js';
import { Redactor } from '../wire/redact.js';
import { allChecks } from './registry.js';
import { prepareMock } from './mock-admin.js';
import { quiesce, readsSeedData, seedData } from '../observe/subscriptions.js';
import { sharedReads } from '../wire/shared-reads.js';
import { sharedWork } from '../wire/shared-work.js';
import { Judgments } from '../judgments.js';
import { finish } from '../report/build-report.js';
import { needsToken, runCheck } from './run-check.js';
import { judgeAhead, prefetch } from './background.js';
import type { CheckResult, Phase, Report } from '../types.js';
import { judgingContract } from '../contract/judging-contract.js';
import { RUN_DEFAULTS } from './run-defaults.js';

export { CredentialRefusedError, NoCredentialError, TargetUnreachableError, UsageError } from '../errors.js';

const PHASES: Phase[] = ['state', 'main', 'alone', 'aggregate'];

/** What the exchange rules judge by: the contract, or the contract adapted to observed decisions. */
function ruleEnvOf(baseUrl: URL, file: DecisionFile | undefined): RuleEnv {
  return { basePath: baseUrl.pathname.replace(/\/+$/, ''), ...judgingContract(file) };
}

/** A credential option, or undefined when it is absent or blank. */
function given(value: string | undefined): string | undefined {
  // Surrounding whitespace is dropped: a secret read from a file or a CI variable often ends in a newline.
  const v = value?.trim();
  return v ? v : undefined;
}

/** The credentials sent in headers, by the option that gives each. */
const HEADER_CREDENTIALS = [
  ['token', '--token'],
  ['limitedToken', '--limited-token'],
  ['apiKey', '--api-key'],
  ['otherTenantToken', '--other-tenant-token'],
  ['adminKey', '--admin-key'],
  ['teamKey', '--team-key'],
] as const;

/**
 * Credentials a header can carry (a token or key never holds whitespace inside): a value with a character no header
 * value may hold is a usage error naming its option, never a failed request deep in the run.
 */
function headerSafe(options: RunContext['options']): void {
  const bad = (v: string) => /[^\t\x20-\x7e\x80-\xff]/.test(v);
  for (const [key, flag] of HEADER_CREDENTIALS) {
    const value = options[key];
    if (value !== undefined && (bad(value) || /\s/.test(value)))
      throw new UsageError(
        `${flag}: the value holds a character a header cannot carry (a line break, a space or a control character)`,
      );
  }
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (bad(value)) throw new UsageError(`--header ${name}: the value holds a character a header cannot carry`);
}

/**
 * Opens a run against a base URL: options checked, credentials read (minted on a mock with its admin API), the
 * target reached, each credential proved by one read (`CredentialRefusedError` when the target refuses one).
 * `needsToken`: a credential is required (else `NoCredentialError`). The caller closes the client. Used by the runner
 * and by `opsapi learn`, so both treat targets, credentials and their proof alike.
 */
export async function openRun(input: ConformOptions, needsToken: boolean): Promise<RunContext> {
  let baseUrl: URL;
  try {
    baseUrl = new URL(input.baseUrl);
  } catch {
    throw new UsageError(`--base-url "${input.baseUrl}" is not a URL`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')
    throw new UsageError('--base-url must be an http or https URL');
  const options: RunContext['options'] = {
    ...input,
    // An empty credential is no credential: a CI secret that is not set expands to "" (inferred).
    token: given(input.token),
    limitedToken: given(input.limitedToken),
    apiKey: given(input.apiKey),
    tokenCommand: given(input.tokenCommand),
    otherTenantToken: given(input.otherTenantToken),
    webhookSecret: given(input.webhookSecret),
    adminKey: given(input.adminKey),
    teamKey: given(input.teamKey),
    baseUrl: input.baseUrl.replace(/\/+$/, ''),
    concurrency: Math.max(1, input.concurrency ?? RUN_DEFAULTS.concurrency),
    timeoutMs: Math.max(100, input.timeoutMs ?? RUN_DEFAULTS.timeoutMs),
    deliveryTimeoutMs: Math.max(100, input.deliveryTimeoutMs ?? RUN_DEFAULTS.deliveryTimeoutMs),
    maxPages: Math.max(1, input.maxPages ?? RUN_DEFAULTS.maxPages),
    rateLimitMaxRequests: Math.max(1, input.rateLimitMaxRequests ?? RUN_DEFAULTS.rateLimitMaxRequests),
    rateLimitMaxSeconds: Math.max(1, input.rateLimitMaxSeconds ?? RUN_DEFAULTS.rateLimitMaxSeconds),
  };
  headerSafe(options);
  const redactor = new Redactor();
  for (const s of [
    options.token,
    options.limitedToken,
    options.apiKey,
    options.otherTenantToken,
    options.webhookSecret,
    options.adminKey,
    options.teamKey,
  ])
    redactor.add(s);
  for (const [name, v] of Object.entries(options.headers ?? {})) {
    redactor.addHeader(name);
    redactor.add(v);
  }

  const credentials: Credentials = {
    main: options.token,
    limited: options.limitedToken,
    other: options.otherTenantToken,
    apiKey: options.apiKey,
  };
  if (options.tokenCommand) {
    credentials.main = await tokenFromCommand(options.tokenCommand);
    redactor.add(credentials.main);
  }
  const guard = new CredentialGuard(credentials, options, redactor);
  const client = new TimedClient({
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    headers: options.headers ?? {},
    redactor,
    credentialHeaders: (cred) => guard.headers(cred),
    credentialGuard: guard,
    matchOperation,
    pace: options.pace === undefined ? DEFAULT_PACE : options.pace,
    paceGroup: paceGroupOf(credentials),
  });
  guard.attach(client);

  const ruleEnv = ruleEnvOf(baseUrl, options.decisions);
  const run: RunContext = {
    options,
    client,
    redactor,
    ruleEnv,
    judgments: new Judgments(ruleEnv),
    mockAdmin: false,
    credentials,
    data: { ...(options.data ?? {}) },
    ...(options.webhookSecret ? { webhookSecret: options.webhookSecret } : {}),
    unavailable: new Map(),
    memo: sharedWork(false),
    read: sharedReads(client),
    cleanup: [],
    notes: [],
  };

  try {
    // Reachability, and whether the target is a mock with its admin API.
    let health: Awaited<ReturnType<typeof client.send>>;
    try {
      health = await client.send('setup', { method: 'GET', path: '/__mock/health', auth: 'none', honour429: false });
    } catch (error) {
      throw new TargetUnreachableError(`cannot reach ${options.baseUrl}: ${(error as Error).message}`);
    }
    const mockAdmin =
      options.useMockAdmin !== false &&
      health.status === 200 &&
      (health.json as { status?: unknown } | undefined)?.status === 'ok';
    (run as { mockAdmin: boolean }).mockAdmin = mockAdmin;
    if (mockAdmin) await prepareMock(run);
    if (!credentials.main && !credentials.apiKey && needsToken) {
      const target = new URL(options.baseUrl);
      target.username = '';
      target.password = '';
      const detail =
        input.token !== undefined && !options.token
          ? 'the token given is empty'
          : mockAdmin
            ? 'its admin API minted no token'
            : health.status === 200 && options.useMockAdmin === false
              ? 'its admin API is off: --no-mock-admin'
              : undefined;
      throw new NoCredentialError(target.href.replace(/\/+$/, ''), detail);
    }
    // Before any check: a refused credential is the job's fault, not the target's (exit 2, never failed checks).
    await guard.proveAll();

    setAvailability(run);
    return run;
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * Runs the conformance checks against a base URL and returns the report (never throws for a non-conforming target;
 * throws `UsageError` for bad options, `TargetUnreachableError` when the target does not answer, and
 * `CredentialRefusedError` when it refuses a credential of the run, at the start or during the run).
 */
export async function runConformance(input: ConformOptions): Promise<Report> {
  const started = Date.now();
  const registry = allChecks();
  const selected = registry.filter(
    (c) =>
      (!input.only?.length || input.only.some((p) => selects(p, c.id))) &&
      !(input.skip ?? []).some((p) => selects(p, c.id)),
  );
  if (selected.length === 0) throw new UsageError('--only/--skip leave no check to run (see --list-checks)');
  const run = await openRun(input, selected.some(needsToken));
  const { options, credentials, client, redactor } = run;
  let stopJudging: (() => Promise<void>) | undefined;
  const prefetching = new AbortController();
  try {
    const wantsReceiver = selected.some((c) => c.requires?.includes('webhooks')) && options.webhooks === true;
    if (wantsReceiver) await startRunReceiver(run, options);

    const results = new Map<string, CheckResult>();
    let done = 0;
    const total = selected.length;
    const runOne = async (def: CheckDef) => {
      options.onProgress?.({ kind: 'check-start', id: def.id, done, total });
      const result = await runCheck(run, def);
      results.set(def.id, result);
      done++;
      options.onProgress?.({ kind: 'check-end', id: def.id, outcome: result.outcome, done, total });
    };

    for (const phase of PHASES) {
      // A credential refused during the run halted it (`credential-guard.ts`): no phase after it runs.
      if (client.halted) break;
      if (phase === 'state') prefetch(run, selected, prefetching.signal);
      if (phase === 'main') {
        prefetching.abort();
        // Not during the state phase, whose writes wait on one another (and on webhooks) in turn.
        stopJudging = judgeAhead(run, selected);
      }
      if (phase === 'aggregate') await stopJudging?.();
      const checks = selected.filter((c) => (c.phase ?? 'main') === phase);
      if (phase === 'state' && options.allowWrites && credentials.main && readsSeedData(selected)) {
        await seedData(run).catch((error: Error) => run.notes.push(`Seeding subscriptions failed: ${error.message}`));
      }
      if (checks.length === 0) continue;
      options.onProgress?.({ kind: 'phase', phase, checks: checks.length });
      if (phase === 'alone') for (const def of checks) await runOne(def);
      else await Promise.all(checks.map(runOne));
      if (phase === 'state') await quiesce(run);
    }

    for (const step of [...run.cleanup].reverse()) {
      try {
        await step.run();
      } catch (error) {
        run.notes.push(`Clean-up "${step.label}" failed: ${redactor.text((error as Error).message)}`);
      }
    }

    if (client.halted) throw client.halted;
    const checks = selected.map((c) => results.get(c.id) as CheckResult);
    const notSelected = registry.filter((c) => !selected.includes(c));
    return finish(run, checks, started, 'opsapi conform', {
      only: input.only ?? [],
      skip: input.skip ?? [],
      notSelected,
    });
  } finally {
    prefetching.abort();
    await stopJudging?.();
    await run.receiver?.close();
    await client.close();
  }
}

function setAvailability(run: RunContext): void {
  const { options, credentials, unavailable } = run;
  if (!credentials.main && !credentials.apiKey)
    unavailable.set('token', 'no credentials: pass --token (a mock with its admin API needs none)');
  if (!options.allowWrites) unavailable.set('writes', 'writes are off: pass --allow-writes');
  if (!options.webhooks) unavailable.set('webhooks', 'webhooks are off: pass --webhooks');
  if (!credentials.limited && !credentials.without)
    unavailable.set('limitedToken', 'no token lacking permissions: pass --limited-token');
  if (!options.rateLimitProbe)
    unavailable.set('rateLimitProbe', 'the rate-limit probe is off: pass --rate-limit-probe');
  if (!credentials.other) unavailable.set('otherTenant', 'no second tenant: pass --other-tenant-token');
}
