import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { KeyThrottle } from '../auth/key-throttle.js';
import type { MockServices } from '../http/services.js';
import type { Rate } from '../rate-limit.js';
import { adminContext, type AdminParts } from './context.js';
import { recordAdminRoutes } from './document-source.js';
import { guardAdminRoutes } from './guard.js';
import { ADMIN_ROUTES } from './routes/index.js';
import { adminErrorHandler } from './validation.js';

/**
 * The admin routes' serializer: answers are written as they are. Their response schemas document them; Fastify's
 * default would serialize through them (fast-json-stringify leaves out members a schema does not name), which would
 * change what the admin API sends. A route may still choose its own (./routes/coverage.ts).
 */
const plainJson = (data: unknown): string => JSON.stringify(data);

/** What the composition root hands the admin API besides the services: the teams and the key checks' settings. */
interface AdminSetup extends AdminParts {
  /** `--trust-proxy`: a refused key counts against the last address of `X-Forwarded-For`. */
  readonly trustProxy: boolean;
  /** Refused admin or team keys a source may send before it is throttled, and their refill (`--key-failure-rate`). */
  readonly keyFailureRate: Rate;
}

/**
 * The admin API at `/__mock/*` (docs/DESIGN.md, "Admin API"): JSON in and out; tenant-scoped calls take the tenant from
 * the bearer token (or API key), like `/v1`. Not rate limited. Turned off with `--no-admin`; with `--admin-key`, every
 * route but health needs the key (./guard.ts), before anything else.
 *
 * A Fastify plugin of its own, whose routes (./routes/, one file per route family) each hold their schemas, their
 * documentation and their handler. Bodies and queries are validated by their TypeBox schemas, and the order of answers
 * is that of Fastify's lifecycle: media type (parsing, 415), authentication (401), JSON (400), schema (400), then the
 * route. `/__mock/openapi.json` is built from the route schemas of this plugin's context only, on the first request
 * (./document-source.ts, ./document.ts).
 */
export async function registerAdmin(app: FastifyInstance, services: MockServices, setup: AdminSetup): Promise<void> {
  const { adminKey } = services.options;
  // First, so every /__mock route registered from here on (its document too) is checked: who may call it (./access.ts).
  app.decorateRequest('adminCaller', null);
  guardAdminRoutes(app, {
    adminKey,
    teams: setup.teams,
    throttle: new KeyThrottle(setup.keyFailureRate),
    trustProxy: setup.trustProxy,
    now: () => services.clock.now(),
  });

  await app.register(async (plugin) => {
    // Before any route: the document describes the routes registered after it in this context.
    const document = recordAdminRoutes(plugin, adminKey !== null);
    const admin = plugin.withTypeProvider<TypeBoxTypeProvider>();
    // TypeBox checks bodies as sent: no type coercion ("60" is not a number), unlike Fastify's default Ajv setup.
    admin.setValidatorCompiler(TypeBoxValidatorCompiler);
    admin.setSerializerCompiler(() => plainJson);
    admin.setErrorHandler(adminErrorHandler);
    admin.decorateRequest('adminTenant', null);
    const context = adminContext(services, setup, document);
    for (const register of ADMIN_ROUTES) register(admin, context);
  });
}
