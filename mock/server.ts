import type { FastifyInstance } from 'fastify';
import { sharedContract } from '../spec/shared-contract.js';
import { TokenVerifier } from './auth/tokens.js';
import { systemClock, type Clock } from './clock.js';
import { allHandlers } from './handlers/index.js';
import { buildApp } from './http/app.js';
import { connectionLimitsRefusal } from './http/connection-limits.js';
import { siteGuard } from './http/site-guard.js';
import { ADMIN_HEALTH_URL } from './admin/guard.js';
import { ADMIN_DOCUMENT } from './admin/document.js';
import { registerAdmin } from './admin/plugin.js';
import { recorders } from './recorders.js';
import { composeDecorators } from './http/decorator.js';
import { withListEngine } from './handlers/list-answer.js';
import type { MockServices } from './http/services.js';
import { PAGE_TEXT_SHARE, PageTexts } from './lists/page-texts.js';
import { defaultOptions, type MockOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { Store } from './store/store.js';
import { WebhookEngine } from './webhooks/engine.js';
import { UndiciTransport } from './webhooks/delivery.js';
import { endpointGuardFor } from './webhooks/address.js';
import { hmacSigner } from './webhooks/signer.js';
import { plantFaults } from './faults/index.js';
import { adoptDecisions } from './decisions/index.js';
import { decisionsOf, type RetryDelay } from '../spec/decisions/index.js';
import { watchDeliveries } from './client-checks/deliveries.js';
import { Persistence, type RestoreReport } from './persistence/persistence.js';
import { createControl, type MockControl } from './control/control.js';
import { keepTeams } from './persistence/team-file.js';
import { TeamRegistry } from './teams/registry.js';
import { TenantQuotas } from './teams/tenant-quotas.js';
import { deliveryRateFor } from './options/delivery-shares.js';
import { checkAdminKey, isLoopbackHost, SharedModeError, sharedModeRefusal } from './shared-mode.js';
import { resolveWebhookKey } from './webhook-key.js';
import { observeCollections } from './loop-figures.js';

/** Where a running mock reports trouble it survives (Redis outages of a replica). */
const warn = (message: string) => process.stderr.write(`opsapi mock: ${message}\n`);

export type { MockControl, MockStats } from './control/control.js';
export type { TenantControl, TenantClock, TokenRequest } from './control/tenant.js';
export type { TenantView } from './control/tenant-view.js';

/** A built mock: the Fastify app and the narrow control API (its internal parts stay private). */
export interface Mock {
  readonly app: FastifyInstance;
  /** Drives and observes the mock in-process (tests, benchmarks): options, tenants, stats, idle. */
  readonly control: MockControl;
  /** What was restored from `--state`, when a state file is used. */
  readonly restored: RestoreReport | null;
  /** Stops accepting, finishes in-flight requests and deliveries, persists, closes. */
  close(): Promise<void>;
}

/** A mock listening on a socket. */
export interface RunningMock extends Mock {
  /** `http://host:port`. */
  readonly url: string;
}

/** Builds the mock without listening (tests may use `app.inject`). */
export async function buildMock(overrides: Partial<MockOptions> = {}, clock: Clock = systemClock): Promise<Mock> {
  const given: MockOptions = { ...defaultOptions(), ...overrides };
  // A key too short to guard anything is refused even on loopback (docs/DESIGN.md, "Shared sandbox"); nothing is built yet.
  const key = given.admin && given.adminKey !== null ? checkAdminKey(given.adminKey) : { ok: true as const };
  if (!key.ok) throw new SharedModeError(key.error);
  const limits = connectionLimitsRefusal(given);
  if (limits) throw new SharedModeError(limits);
  if (given.redis && given.stateFile)
    throw new SharedModeError(
      '--state and --redis cannot be used together: with --redis the state lives in Redis (run Redis with persistence on, e.g. appendonly yes)',
    );
  const { document, validator } = sharedContract();
  // The collector's pauses, for `GET /__mock/stats` (`loop`): counted from the first mock of the process on.
  observeCollections();
  // Decisions observed at a real deployment (`--decisions`) decorate the faithful parts here, and only when given.
  const decided = given.decisions ? decisionsOf(given.decisions) : null;
  const decisions = decided ? adoptDecisions(decided, clock) : null;
  const options: MockOptions = decisions ? { ...given, ...decisions.options } : given;
  // Planted faults (`--fault`) decorate the faithful parts here, and only when some are planted.
  const faults = options.faults.size > 0 ? plantFaults(options.faults) : null;
  const store = new Store({
    seed: options.seed,
    skus: options.skus,
    maxTenants: options.maxTenants,
    cacheMb: options.cacheMb,
    // Before any tenant exists: every tenant's webhook secret derives from it (never from the JWT secret).
    webhookKey: await resolveWebhookKey(options),
    clock,
  });
  // Teams (docs/DESIGN.md, "Team credentials (shared sandbox)"): every token of a team is checked against them, and
  // each team's orgs in memory are bounded by its own quota, so one team's churn evicts only its own orgs.
  const teams = new TeamRegistry(options.maxTenants);
  store.useQuotas(new TenantQuotas(teams));
  const verifier = new TokenVerifier(options.jwtSecret, undefined, (id) => teams.exists(id));
  // `--redis`: this process is one replica of a mock whose state lives in Redis (mock/replication/), wired only then.
  // Loaded only then: the Redis client costs ~50 ms and ~25 MB at start-up (measured), which a mock without it never pays.
  const deliveryPace = deliveryRateFor(options.deliveryRatePerTenant, isLoopbackHost(options.host));
  const replication = options.redis
    ? await (await import('./replication/index.js')).startReplication(
        { ...options, deliveryPace },
        options.redis,
        store,
        verifier,
        warn,
      )
    : null;
  // Teams are shared through Redis too, on connections of their own.
  const sharedTeams = options.redis
    ? await (await import('./replication/team-sharing.js')).shareTeams(options.redis, teams, warn).catch(async (e) => {
        await replication?.close();
        throw e;
      })
    : null;
  const transport = new UndiciTransport({
    timeoutMs: options.deliveryTimeoutMs,
    guard: endpointGuardFor({ ...options, loopbackHost: isLoopbackHost(options.host) }),
    clock,
  });
  const engine = new WebhookEngine(
    store,
    {
      retrySchedule: options.retrySchedule,
      concurrency: options.deliveryConcurrency,
      perTenantConcurrency: options.deliveryConcurrencyPerTenant,
      perEndpointConcurrency: options.deliveryConcurrencyPerEndpoint,
      maxNotificationsPerTenant: options.maxNotifications,
      maxPendingPerTenant: options.maxPendingNotifications,
      maxAttemptsPerNotification: options.maxAttemptsPerNotification,
      unreachablePauseMs: options.unreachablePauseMs,
      perTenantRate: deliveryPace,
    },
    {
      clock,
      ...(faults?.webhookParts({ signer: hmacSigner, transport }) ?? { signer: hmacSigner, transport }),
      ...(replication ? { schedulers: replication.schedulers, refresh: replication.refresh } : {}),
    },
  );
  replication?.start(engine);
  // Client checks (docs/DESIGN.md, "Client certification") watch the attempts to receivers the client subscribed.
  watchDeliveries(engine, clock);
  const persistence = options.stateFile
    ? new Persistence(options.stateFile, store, engine, { compactAfterLines: options.stateCompactLines, warn })
    : null;
  const restored = persistence ? persistence.restore() : null;
  if (options.stateFile) keepTeams(options.stateFile, teams);
  const services: MockServices = {
    options,
    store,
    verifier,
    // A replicated mock's buckets are shared in Redis (its gate takes the token): none in this process.
    limiter: options.rateLimit && !replication ? new RateLimiter(options.rateLimit) : null,
    engine,
    validator,
    clock,
    persistence,
    replication,
    // Kept pages are the faithful handlers' answers: none where decisions or faults decorate the handlers.
    pageTexts: decisions || faults ? null : new PageTexts(store.caches.limitBytes * PAGE_TEXT_SHARE),
  };
  // Faults are applied after decisions: they break the adopted behaviour, as they break the inferred one.
  const faithful = withListEngine(allHandlers(engine, options), {
    textCase: options.textCase,
    equalsCase: options.equalsCase,
    ...(options.nullOrder ? { nullOrder: options.nullOrder } : {}),
  });
  const adopted = decisions?.handlers(faithful) ?? faithful;
  const handlers = faults?.handlers(adopted) ?? adopted;
  let app: FastifyInstance;
  try {
    app = await buildApp(services, handlers, document, {
      decorator: composeDecorators(replication?.gate, decisions?.app, faults?.app),
      ...recorders(store, options, persistence, {
        clock,
        retryDelay: decided?.get('retry-delay') as RetryDelay | undefined,
      }),
      // A keyed admin API's document needs the key, which the docs page cannot send when it loads it: not offered there.
      docsSections: options.admin && options.adminKey === null ? [ADMIN_DOCUMENT] : [],
      // A loopback mock's admin API answers no web page of another site (docs/DESIGN.md, "Shared sandbox").
      onRequest: [
        siteGuard({
          prefix: '/__mock',
          open: new Set([ADMIN_HEALTH_URL, ADMIN_DOCUMENT.url]),
          loopbackHost: isLoopbackHost(options.host),
          isLoopbackName: isLoopbackHost,
          corsOrigins: options.corsOrigin,
          allowedHosts: options.allowedHost,
        }),
      ],
    });
    // A plugin of its own (its own body parsing and validation), registered after the shell's hooks so it inherits them.
    if (options.admin)
      await registerAdmin(app, services, {
        teams,
        teamTokenSeconds: options.teamTokenLifetime,
        trustProxy: options.trustProxy,
        keyFailureRate: options.keyFailureRate,
      });
  } catch (error) {
    // Nothing may outlive a failed build: the delivery engine's timers, the state file's handle, the Redis connection.
    await replication?.close();
    await sharedTeams?.close();
    await engine.close();
    persistence?.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    app,
    control: createControl(services, options),
    restored,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await replication?.close();
        await sharedTeams?.close();
        await engine.close();
        persistence?.close();
      })()),
  };
}

/**
 * Builds the mock and listens on `host:port` (port 0: any free port). Throws a `SharedModeError` for options a mock on
 * that host must not run with (mock/shared-mode.ts).
 */
export async function startMock(
  overrides: Partial<MockOptions> = {},
  clock: Clock = systemClock,
): Promise<RunningMock> {
  // Before anything is built or bound: a non-loopback host needs a JWT secret of its own and a guarded (or no) admin API.
  const refusal = sharedModeRefusal({ ...defaultOptions(), ...overrides });
  if (refusal) throw new SharedModeError(refusal);
  const mock = await buildMock(overrides, clock);
  const { host, port } = mock.control.options;
  try {
    await mock.app.listen({ host, port });
  } catch (error) {
    // A failed bind (port taken, address not local) must not leak the app, the delivery engine or the state file.
    await mock.close();
    throw error;
  }
  const address = mock.app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { ...mock, url: `http://${shownHost}:${actualPort}` };
}
