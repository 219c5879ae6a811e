import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { ADMIN, type Principal } from '../auth/principal.js';
import { authenticate } from '../http/credentials.js';
import { refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';
import type { MockServices } from '../http/services.js';
import { unauthorized, type ProblemAnswer } from '../problems.js';
import { evictionWarning } from '../store/eviction-warning.js';
import type { TenantState } from '../store/tenant-state.js';
import type { TeamRegistry } from '../teams/registry.js';
import type { AdminCaller } from './access.js';
import type { AdminDocumentSource } from './document-source.js';
import { forbidden, notTenantAdmin } from './guard.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's tenant on a tenant-scoped admin route, once authenticated. */
    adminTenant: TenantState | null;
  }
}

/** The admin plugin's instance, with TypeBox types for schemas. */
export type AdminInstance = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What the admin API adds to the mock's services: the teams and the bound of their tokens' lifetime. */
export interface AdminParts {
  readonly teams: TeamRegistry;
  /** Longest lifetime of a token a team mints, and its default (`--team-token-lifetime`), seconds. */
  readonly teamTokenSeconds: number;
}

/** What every admin route family is registered with: the mock's services and the tenant authentication. */
export interface AdminContext {
  readonly services: MockServices;
  readonly parts: AdminParts;
  /** The caller's tenant, or the plain 401 (Authentication, point 3) as a value. */
  callerTenant(req: FastifyRequest): Promise<{ tenant: TenantState } | { refusal: ProblemAnswer }>;
  /**
   * A `preValidation` hook of tenant-scoped routes: authentication before the body is read. A route with it says so
   * in its documentation (`security: TENANT_CREDENTIALS`, ./doc-parts.ts); mock/test/admin-document.test.ts checks
   * that the two agree.
   */
  scoped(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** The admin API's own document, built from the routes' schemas on first use (./document-source.ts). */
  readonly document: AdminDocumentSource;
}

/**
 * Whether the caller reaches the tenant its credentials name (docs/DESIGN.md, "Team credentials (shared sandbox)"):
 * the operator every tenant, a team the orgs starting with its prefix, and a caller without a key only its own tenant,
 * with an App.Admin bearer token. Checked before the tenant is touched: a refused caller seeds and evicts nothing.
 */
function reachRefusal(req: FastifyRequest, caller: AdminCaller | null, principal: Principal): ProblemAnswer | null {
  if (caller?.kind === 'operator') return null;
  if (caller?.kind === 'team')
    return principal.org.startsWith(caller.team.orgPrefix)
      ? null
      : forbidden(
          req,
          "The team key does not reach the tenant of these credentials: it is not one of the team's orgs.",
        );
  return principal.via === 'jwt' && principal.roles.has(ADMIN) ? null : notTenantAdmin(refOf(req));
}

export function adminContext(services: MockServices, parts: AdminParts, document: AdminDocumentSource): AdminContext {
  const { store, verifier, clock } = services;
  const callerTenant: AdminContext['callerTenant'] = async (req) => {
    const auth = await authenticate(req.headers, verifier, store, clock.now());
    if (!auth.ok) return { refusal: unauthorized(refOf(req), auth.reason) };
    const refusal = reachRefusal(req, req.adminCaller, auth.principal);
    return refusal ? { refusal } : { tenant: store.tenant(auth.principal.org) };
  };
  const scoped: AdminContext['scoped'] = async (req, reply) => {
    const caller = await callerTenant(req);
    if ('refusal' in caller) return send(reply, caller.refusal);
    req.adminTenant = caller.tenant;
    const evicted = evictionWarning(caller.tenant, store.options.maxTenants);
    if (evicted) reply.header('warning', evicted);
    return undefined;
  };
  return { services, parts, callerTenant, scoped, document };
}

/** The tenant the `scoped` hook authenticated (set on every route that has the hook). */
export function tenantOf(req: FastifyRequest): TenantState {
  if (!req.adminTenant)
    throw new Error(`${req.method} ${req.url}: a tenant-scoped admin route without its authentication hook`);
  return req.adminTenant;
}
