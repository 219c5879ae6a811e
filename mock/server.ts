import type { FastifyInstance } from 'fastify';
import { buildDocument } from '../spec/build.js';
import { ContractValidator } from '../spec/validate.js';
import { TokenVerifier } from './auth/tokens.js';
import { systemClock, type Clock } from './clock.js';
import { allHandlers } from './handlers/index.js';
import { buildApp } from './http/app.js';
import type { MockServices } from './http/services.js';
import { defaultOptions, type MockOptions } from './options.js';
import { RateLimiter } from './rate-limit.js';
import { Store } from './store/store.js';
import { WebhookEngine } from './webhooks/engine.js';
import { UndiciTransport } from './webhooks/delivery.js';
import { hmacSigner } from './webhooks/signer.js';
import { withWebhookFaults } from './faults/webhook-signer.js';
import { Persistence, type RestoreReport } from './persistence/persistence.js';

/** A built mock: the Fastify app and its parts. */
export interface Mock {
  readonly app: FastifyInstance;
  readonly services: MockServices;
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
  const options: MockOptions = { ...defaultOptions(), ...overrides };
  const document = buildDocument();
  const store = new Store({ seed: options.seed, skus: options.skus, maxTenants: options.maxTenants, jwtSecret: options.jwtSecret, clock });
  const transport = new UndiciTransport({ timeoutMs: options.deliveryTimeoutMs, blockPrivate: options.blockPrivateEndpoints, clock });
  const engine = new WebhookEngine(
    store,
    { retrySchedule: options.retrySchedule, concurrency: options.deliveryConcurrency, maxNotificationsPerTenant: options.maxNotifications },
    // Planted signature faults wrap the signer or the transport; without them these are the faithful parts.
    { clock, ...withWebhookFaults({ signer: hmacSigner, transport }, options.faults) },
  );
  const persistence = options.stateFile ? new Persistence(options.stateFile, store, engine) : null;
  const restored = persistence ? persistence.restore() : null;
  const services: MockServices = {
    options,
    store,
    verifier: new TokenVerifier(options.jwtSecret),
    limiter: options.rateLimit ? new RateLimiter(options.rateLimit) : null,
    engine,
    validator: new ContractValidator(document),
    clock,
    persistence,
  };
  const app = await buildApp(services, allHandlers(engine), document);
  let closing: Promise<void> | null = null;
  return {
    app,
    services,
    restored,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await engine.close();
        persistence?.close();
      })()),
  };
}

/** Builds the mock and listens on `host:port` (port 0: any free port). */
export async function startMock(overrides: Partial<MockOptions> = {}, clock: Clock = systemClock): Promise<RunningMock> {
  const mock = await buildMock(overrides, clock);
  const { host, port } = mock.services.options;
  await mock.app.listen({ host, port });
  const address = mock.app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return { ...mock, url: `http://${shownHost}:${actualPort}` };
}
