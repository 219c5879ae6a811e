import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { mintToken, ORG_PATTERN } from '../auth/tokens.js';
import { codedProblem, unauthorized } from '../problems.js';
import type { TenantState } from '../store/tenant-state.js';
import { authenticate } from '../http/credentials.js';
import { baseUrlOf, refOf } from '../http/operation-route.js';
import { send } from '../http/send.js';
import type { MockServices } from '../http/services.js';
import { ok } from '../http/context.js';

/** Bounds of `POST /__mock/clock` (seconds): at most 10 years per call. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

function parseJson(req: FastifyRequest): { ok: true; value: Record<string, unknown> } | { ok: false; detail: string } {
  const raw = req.body;
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return { ok: true, value: {} };
  try {
    const value: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, detail: 'The body must be a JSON object.' };
    return { ok: true, value: value as Record<string, unknown> };
  } catch (error) {
    return { ok: false, detail: `The body is not valid JSON: ${(error as Error).message}` };
  }
}

/** Deepest nesting accepted in event `data`: a stored payload must stay serialisable (lists, journal, state file). */
const MAX_DATA_DEPTH = 64;

/** Whether a JSON value nests deeper than `max` levels (iterative: the value may be arbitrarily deep). */
function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function stringList(value: unknown): string[] | null {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length <= 200) && value.length <= 200 ? (value as string[]) : null;
}

/**
 * The admin API at `/__mock/*` (DESIGN): JSON in and out; tenant-scoped calls take the tenant from the bearer
 * token (or API key), like `/v1`. Not rate limited. Turned off with `--no-admin`.
 */
export function registerAdmin(app: FastifyInstance, services: MockServices): void {
  const { store, verifier, engine, options, clock } = services;
  const faults = options.faults;

  const invalid = (req: FastifyRequest, reply: FastifyReply, detail: string, field: string) =>
    send(reply, codedProblem(baseUrlOf(req), 'COMMON.VALIDATION.ERROR', detail, refOf(req), { field }), faults);

  /** Runs a tenant-scoped admin call for the caller's tenant. */
  const scoped = (fn: (tenant: TenantState, req: FastifyRequest, reply: FastifyReply) => unknown) => async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticate(req.headers, verifier, store, clock.now());
    if (!auth.ok) return send(reply, unauthorized(refOf(req), auth.reason), faults);
    return fn(store.tenant(auth.principal.org), req, reply);
  };

  app.get('/__mock/health', async (_req, reply) => send(reply, ok(200, { status: 'ok' }), faults));

  // Process figures for soak tests and operators: tenants in memory, stored notifications, memory. With `?gc=1`
  // and a process started with --expose-gc, a full collection runs first, so `heapUsed` is the live heap.
  app.get('/__mock/stats', async (req, reply) => {
    const wantGc = (req.query as Record<string, unknown>).gc === '1';
    const gc = (globalThis as { gc?: () => void }).gc;
    if (wantGc && gc) gc();
    let notifications = 0;
    for (const org of store.orgs()) notifications += store.peek(org)?.notifications.size ?? 0;
    const memory = process.memoryUsage();
    return send(
      reply,
      ok(200, {
        uptimeSeconds: Math.round(process.uptime()),
        tenants: store.orgs().length,
        notifications,
        pendingDeliveries: engine.pendingCount(),
        memory: { rss: memory.rss, heapUsed: memory.heapUsed, heapTotal: memory.heapTotal, external: memory.external },
        gcForced: Boolean(wantGc && gc),
      }),
      faults,
    );
  });

  app.post('/__mock/tokens', async (req, reply) => {
    const body = parseJson(req);
    if (!body.ok) return invalid(req, reply, body.detail, '');
    const { org, expiresIn } = body.value;
    if (typeof org !== 'string' || !ORG_PATTERN.test(org)) return invalid(req, reply, 'org must be 1-64 letters, digits, ".", "_" or "-".', 'org');
    const permissions = stringList(body.value.permissions);
    if (!permissions) return invalid(req, reply, 'permissions must be an array of strings.', 'permissions');
    const roles = stringList(body.value.roles);
    if (!roles) return invalid(req, reply, 'roles must be an array of strings.', 'roles');
    if (expiresIn !== undefined && !(Number.isInteger(expiresIn) && (expiresIn as number) >= -86400 && (expiresIn as number) <= 31_536_000)) {
      return invalid(req, reply, 'expiresIn must be an integer number of seconds up to one year (negative values mint expired tokens).', 'expiresIn');
    }
    const token = await mintToken(options.jwtSecret, { org, permissions, roles }, (expiresIn as number | undefined) ?? undefined);
    return send(reply, ok(201, { token }), faults);
  });

  app.post('/__mock/reset', async (req, reply) => {
    const body = parseJson(req);
    if (!body.ok) return invalid(req, reply, body.detail, '');
    if (body.value.all === true) {
      // Like a tenant reset, a reset of all tenants gives every tenant a full rate-limit bucket again.
      services.limiter?.clear();
      store.resetAll();
      return send(reply, ok(200, { reset: 'all' }), faults);
    }
    return scoped((tenant) => {
      store.reset(tenant.org);
      services.limiter?.forget(tenant.org);
      return send(reply, ok(200, { reset: tenant.org }), faults);
    })(req, reply);
  });

  app.get('/__mock/clock', scoped((tenant, _req, reply) => send(reply, ok(200, { now: tenant.nowIso(), offsetSeconds: tenant.clock.offset / 1000 }), faults)));

  app.post(
    '/__mock/clock',
    scoped(async (tenant, req, reply) => {
      const body = parseJson(req);
      if (!body.ok) return invalid(req, reply, body.detail, '');
      const seconds = body.value.advanceSeconds;
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS) {
        return invalid(req, reply, `advanceSeconds must be a number from 0 to ${MAX_ADVANCE_SECONDS}.`, 'advanceSeconds');
      }
      await engine.advance(tenant, seconds);
      return send(reply, ok(200, { now: tenant.nowIso(), offsetSeconds: tenant.clock.offset / 1000 }), faults);
    }),
  );

  app.get('/__mock/fixtures', scoped((tenant, _req, reply) => send(reply, ok(200, tenant.manifest), faults)));

  app.get('/__mock/requests', scoped((tenant, _req, reply) => send(reply, ok(200, { requests: tenant.journal.list() }), faults)));

  app.delete('/__mock/requests', scoped((tenant, _req, reply) => {
    tenant.journal.clear();
    return send(reply, ok(204), faults);
  }));

  /**
   * Revokes an API key of the caller's tenant (the contract has no revoke operation): the key record stays, with
   * `isActive: false`, so requests carrying the key get the plain 401. Idempotent; another tenant's key id is 404.
   */
  app.delete(
    '/__mock/api-keys/:id',
    scoped((tenant, req, reply) => {
      const id = (req.params as { id: string }).id;
      const record = tenant.apiKeys.get(id);
      if (!record) return send(reply, codedProblem(baseUrlOf(req), 'COMMON.ENTITY.NOT_FOUND', `API key '${id}' does not exist.`, refOf(req), { entity: 'ApiKey', id }), faults);
      if (record.apiKey.isActive) tenant.commit('apiKey', id, { ...record, apiKey: { ...record.apiKey, isActive: false } });
      return send(reply, ok(204), faults);
    }),
  );

  app.get('/__mock/webhook-secret', scoped((tenant, _req, reply) => send(reply, ok(200, { secret: tenant.webhookSecret }), faults)));

  app.post(
    '/__mock/events',
    scoped((tenant, req, reply) => {
      const body = parseJson(req);
      if (!body.ok) return invalid(req, reply, body.detail, '');
      const { eventName, eventVersion, data } = body.value;
      if (typeof eventName !== 'string') return invalid(req, reply, 'eventName is required.', 'eventName');
      if (eventVersion !== undefined && !(Number.isInteger(eventVersion) && (eventVersion as number) >= 1)) return invalid(req, reply, 'eventVersion must be a positive integer.', 'eventVersion');
      if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) return invalid(req, reply, 'data must be a JSON object.', 'data');
      if (data !== undefined && nestsDeeperThan(data, MAX_DATA_DEPTH)) return invalid(req, reply, `data must not nest deeper than ${MAX_DATA_DEPTH} levels.`, 'data');
      const emission = engine.emit(tenant, {
        eventName,
        ...(eventVersion !== undefined ? { eventVersion: eventVersion as number } : {}),
        ...(data !== undefined ? { data: data as Record<string, unknown> } : {}),
      });
      if ('error' in emission) {
        const parameters = { eventName, eventVersion: eventVersion ?? null };
        return send(reply, codedProblem(baseUrlOf(req), 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND', `The environment has no event '${eventName}'${eventVersion !== undefined ? ` version ${String(eventVersion)}` : ''}.`, refOf(req), parameters), faults);
      }
      return send(reply, ok(202, emission), faults);
    }),
  );
}
