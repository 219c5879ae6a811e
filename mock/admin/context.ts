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
import { authenticate } from '../http/credentials.js';
import { refOf } from '../http/request-ref.js';
import { send } from '../http/send.js';
import type { MockServices } from '../http/services.js';
import { unauthorized, type ProblemAnswer } from '../problems.js';
import { evictionWarning } from '../store/eviction-warning.js';
import type { TenantState } from '../store/tenant-state.js';

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

/** What every admin route family is registered with: the mock's services and the tenant authentication. */
export interface AdminContext {
  readonly services: MockServices;
  /** The caller's tenant, or the plain 401 (Authentication, point 3) as a value. */
  callerTenant(req: FastifyRequest): Promise<{ tenant: TenantState } | { refusal: ProblemAnswer }>;
  /**
   * A `preValidation` hook of tenant-scoped routes: authentication before the body is read. A route with it says so
   * in its documentation (`security: TENANT_CREDENTIALS`, ./doc-parts.ts); mock/test/admin-document.test.ts checks
   * that the two agree.
   */
  scoped(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
}

export function adminContext(services: MockServices): AdminContext {
  const { store, verifier, clock } = services;
  const callerTenant: AdminContext['callerTenant'] = async (req) => {
    const auth = await authenticate(req.headers, verifier, store, clock.now());
    return auth.ok ? { tenant: store.tenant(auth.principal.org) } : { refusal: unauthorized(refOf(req), auth.reason) };
  };
  const scoped: AdminContext['scoped'] = async (req, reply) => {
    const caller = await callerTenant(req);
    if ('refusal' in caller) return send(reply, caller.refusal);
    req.adminTenant = caller.tenant;
    const evicted = evictionWarning(caller.tenant, store.options.maxTenants);
    if (evicted) reply.header('warning', evicted);
    return undefined;
  };
  return { services, callerTenant, scoped };
}

/** The tenant the `scoped` hook authenticated (set on every route that has the hook). */
export function tenantOf(req: FastifyRequest): TenantState {
  if (!req.adminTenant)
    throw new Error(`${req.method} ${req.url}: a tenant-scoped admin route without its authentication hook`);
  return req.adminTenant;
}
