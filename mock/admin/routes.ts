import { evictionWarning } from '../store/eviction-warning.js';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mintToken } from '../auth/tokens.js';
import { codedProblem, unauthorized, type ProblemAnswer } from '../problems.js';
import type { TenantState } from '../store/tenant-state.js';
import { authenticate } from '../http/credentials.js';
import { baseUrlOf, refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';
import type { MockServices } from '../http/services.js';
import { mockStats } from '../stats.js';
import { ok } from '../handlers/context.js';
import { ApiKeyParams, ClockBody, EventBody, ResetBody, StatsQuery, TokenBody } from './schemas.js';
import { adminErrorHandler, parseJsonBody } from './validation.js';
import { serveAdminDocument } from './openapi-route.js';
import { registerCoverageRoute } from './coverage.js';
import { ADMIN_HEALTH_URL, guardAdminRoutes } from './guard.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's tenant on a tenant-scoped admin route, once authenticated. */
    adminTenant: TenantState | null;
  }
}

/** The tenant a `scoped` hook authenticated (set on every route that has the hook). */
function tenantOf(req: FastifyRequest): TenantState {
  if (!req.adminTenant)
    throw new Error(`${req.method} ${req.url}: a tenant-scoped admin route without its authentication hook`);
  return req.adminTenant;
}

/**
 * The admin API at `/__mock/*` (docs/DESIGN.md, "Admin API"): JSON in and out; tenant-scoped calls take the tenant from the bearer
 * token (or API key), like `/v1`. Not rate limited. Turned off with `--no-admin`; with `--admin-key`, every route
 * but health needs the key (./guard.ts), before anything else. A Fastify plugin of its own: bodies and queries
 * are validated by the TypeBox schemas of ./schemas.ts, and the order of answers is that of Fastify's lifecycle:
 * media type (parsing, 415), authentication (401), JSON (400), schema (400), then the route.
 */
export async function registerAdmin(app: FastifyInstance, services: MockServices): Promise<void> {
  const { store, verifier, engine, options, clock } = services;

  /** The caller's tenant, or the plain 401 (Authentication, point 3) as a value. */
  const callerTenant = async (req: FastifyRequest): Promise<{ tenant: TenantState } | { refusal: ProblemAnswer }> => {
    const auth = await authenticate(req.headers, verifier, store, clock.now());
    return auth.ok ? { tenant: store.tenant(auth.principal.org) } : { refusal: unauthorized(refOf(req), auth.reason) };
  };

  /** A `preValidation` hook of tenant-scoped routes: authentication before the body is read. */
  const scoped = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const caller = await callerTenant(req);
    if ('refusal' in caller) return send(reply, caller.refusal);
    req.adminTenant = caller.tenant;
    const evicted = evictionWarning(caller.tenant, store.options.maxTenants);
    if (evicted) reply.header('warning', evicted);
    return undefined;
  };

  // `--admin-key`: first, so every /__mock route registered from here on (its document too) needs the key but health.
  if (options.adminKey !== null) guardAdminRoutes(app, options.adminKey);

  // `GET /__mock/openapi.json`: every /__mock route registered from here on, with its schemas, documented.
  serveAdminDocument(app, scoped);

  await app.register(async (plugin) => {
    const admin = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // TypeBox checks bodies as sent: no type coercion ("60" is not a number), unlike Fastify's default Ajv setup.
    admin.setValidatorCompiler(TypeBoxValidatorCompiler);
    admin.setErrorHandler(adminErrorHandler);
    admin.decorateRequest('adminTenant', null);

    admin.get(ADMIN_HEALTH_URL, async (_req, reply) => send(reply, ok(200, { status: 'ok' })));

    // Process figures for soak tests and operators: tenants in memory, stored notifications, memory. With `?gc=1`
    // and a process started with --expose-gc, a full collection runs first, so `heapUsed` is the live heap.
    admin.get(
      '/__mock/stats',
      { schema: { querystring: StatsQuery.schema }, config: { fieldDetails: StatsQuery.details } },
      async (req, reply) => {
        const wantGc = req.query.gc === '1';
        const gc = (globalThis as { gc?: () => void }).gc;
        if (wantGc && gc) gc();
        const figures = mockStats(services);
        const replication = services.replication ? await services.replication.stats().catch(() => null) : null;
        const memory = process.memoryUsage();
        return send(
          reply,
          ok(200, {
            uptimeSeconds: Math.round(process.uptime()),
            tenants: figures.tenants,
            tenantLimit: { ...store.figures(), persisted: options.stateFile !== null },
            listCaches: figures.listCaches,
            ...(figures.listPages ? { listPages: figures.listPages } : {}),
            notifications: figures.notifications,
            ...(replication
              ? { pendingDeliveries: replication.due + replication.claimed, replication }
              : { pendingDeliveries: figures.pendingDeliveries }),
            memory: {
              rss: memory.rss,
              heapUsed: memory.heapUsed,
              heapTotal: memory.heapTotal,
              external: memory.external,
            },
            gcForced: Boolean(wantGc && gc),
          }),
        );
      },
    );

    admin.post(
      '/__mock/tokens',
      { schema: { body: TokenBody.schema }, config: { fieldDetails: TokenBody.details }, preValidation: parseJsonBody },
      async (req, reply) => {
        const { org, permissions = [], roles = [], expiresIn } = req.body;
        const token = await mintToken(options.jwtSecret, { org, permissions, roles }, expiresIn);
        return send(reply, ok(201, { token }));
      },
    );

    admin.post(
      '/__mock/reset',
      { schema: { body: ResetBody.schema }, config: { fieldDetails: ResetBody.details }, preValidation: parseJsonBody },
      async (req, reply) => {
        if (req.body.all === true) {
          // Like a tenant reset, a reset of all tenants gives every tenant a full rate-limit bucket again.
          services.limiter?.clear();
          store.resetAll();
          return send(reply, ok(200, { reset: 'all' }));
        }
        const caller = await callerTenant(req);
        if ('refusal' in caller) return send(reply, caller.refusal);
        const { org } = caller.tenant;
        store.reset(org);
        services.limiter?.forget(org);
        return send(reply, ok(200, { reset: org }));
      },
    );

    const clockNow = (tenant: TenantState) =>
      ok(200, { now: tenant.nowIso(), offsetSeconds: tenant.clock.offset / 1000 });

    admin.get('/__mock/clock', { preValidation: scoped }, async (req, reply) => send(reply, clockNow(tenantOf(req))));

    admin.post(
      '/__mock/clock',
      {
        schema: { body: ClockBody.schema },
        config: { fieldDetails: ClockBody.details },
        preValidation: [scoped, parseJsonBody],
      },
      async (req, reply) => {
        const tenant = tenantOf(req);
        await engine.advance(tenant, req.body.advanceSeconds);
        return send(reply, clockNow(tenant));
      },
    );

    admin.get('/__mock/fixtures', { preValidation: scoped }, async (req, reply) =>
      send(reply, ok(200, tenantOf(req).manifest)),
    );

    admin.get('/__mock/requests', { preValidation: scoped }, async (req, reply) =>
      send(reply, ok(200, { requests: tenantOf(req).journal.list() })),
    );

    admin.delete('/__mock/requests', { preValidation: scoped }, async (req, reply) => {
      tenantOf(req).journal.clear();
      return send(reply, ok(204));
    });

    registerCoverageRoute(admin, scoped);

    /**
     * Revokes an API key of the caller's tenant (the contract has no revoke operation): the key record stays, with
     * `isActive: false`, so requests carrying the key get the plain 401. Idempotent; another tenant's key id is 404.
     */
    admin.delete(
      '/__mock/api-keys/:id',
      { schema: { params: ApiKeyParams.schema }, preValidation: scoped },
      async (req, reply) => {
        const tenant = tenantOf(req);
        const { id } = req.params;
        const record = tenant.apiKeys.get(id);
        if (!record)
          return send(
            reply,
            codedProblem(baseUrlOf(req), 'COMMON.ENTITY.NOT_FOUND', `API key '${id}' does not exist.`, refOf(req), {
              entity: 'ApiKey',
              id,
            }),
          );
        if (record.apiKey.isActive)
          tenant.commit('apiKey', id, { ...record, apiKey: { ...record.apiKey, isActive: false } });
        return send(reply, ok(204));
      },
    );

    admin.get('/__mock/webhook-secret', { preValidation: scoped }, async (req, reply) =>
      send(reply, ok(200, { secret: tenantOf(req).webhookSecret })),
    );

    admin.post(
      '/__mock/events',
      {
        schema: { body: EventBody.schema },
        config: { fieldDetails: EventBody.details },
        preValidation: [scoped, parseJsonBody],
      },
      async (req, reply) => {
        const tenant = tenantOf(req);
        const { eventName, eventVersion, data } = req.body;
        const emission = engine.emit(tenant, {
          eventName,
          ...(eventVersion !== undefined ? { eventVersion } : {}),
          ...(data !== undefined ? { data } : {}),
        });
        if ('error' in emission) {
          const parameters = { eventName, eventVersion: eventVersion ?? null };
          return send(
            reply,
            codedProblem(
              baseUrlOf(req),
              'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
              `The environment has no event '${eventName}'${eventVersion !== undefined ? ` version ${String(eventVersion)}` : ''}.`,
              refOf(req),
              parameters,
            ),
          );
        }
        return send(reply, ok(202, emission));
      },
    );
  });
}
