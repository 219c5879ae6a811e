import type { Team } from '../teams/registry.js';

/**
 * Who may call each admin route (docs/DESIGN.md, "Team credentials (shared sandbox)"), in one table so that no route
 * is left unclassified (registering a route missing here throws, so the mock does not start). Inferred throughout: the reference does not know the admin API.
 *
 * - `open`: anyone, no key (a load balancer probes health without secrets);
 * - `operator`: the admin key only (`X-Admin-Key`): figures of every tenant, the teams themselves;
 * - `team`: the operator or any team (`X-Team-Key`); the route narrows what a team may do (tokens: its own orgs);
 * - `tenant`: a tenant-scoped route: the operator, a team whose prefix the caller's tenant starts with, or the
 *   tenant's own `App.Admin` bearer token.
 *
 * A mock without `--admin-key` answers every caller as the operator, as it always did on loopback, unless the caller
 * sends a team key: then it is that team, so a team's tooling behaves alike on a local and a shared mock.
 */
export type RouteAccess = 'open' | 'operator' | 'team' | 'tenant';

/** Routes by `METHOD path` as Fastify registers them (`HEAD` routes are classified as their `GET`). */
const ADMIN_ACCESS: Readonly<Record<string, RouteAccess>> = {
  'GET /__mock/health': 'open',
  'GET /__mock/openapi.json': 'team',
  'GET /__mock/stats': 'operator',
  'POST /__mock/teams': 'operator',
  'GET /__mock/teams': 'operator',
  'DELETE /__mock/teams/:id': 'operator',
  'POST /__mock/tokens': 'team',
  // `{"all": true}` resets every tenant: the route itself keeps that to the operator.
  'POST /__mock/reset': 'tenant',
  'GET /__mock/clock': 'tenant',
  'POST /__mock/clock': 'tenant',
  'GET /__mock/fixtures': 'tenant',
  'GET /__mock/requests': 'tenant',
  'DELETE /__mock/requests': 'tenant',
  'GET /__mock/coverage': 'tenant',
  'POST /__mock/events': 'tenant',
  'GET /__mock/webhook-secret': 'tenant',
  'DELETE /__mock/api-keys/:id': 'tenant',
  'POST /__mock/client-checks': 'tenant',
  'GET /__mock/client-checks/report': 'tenant',
  'DELETE /__mock/client-checks': 'tenant',
};

/**
 * The class of a route. An unclassified one is a mistake of the code, refused when the route is registered (the mock
 * does not start), so no route is open, or closed, by oversight.
 */
export function accessOf(method: string, url: string): RouteAccess {
  const access = ADMIN_ACCESS[`${method === 'HEAD' ? 'GET' : method} ${url}`];
  if (access === undefined) throw new Error(`admin route ${method} ${url} has no access class in mock/admin/access.ts`);
  return access;
}

/** Who the access check found calling an admin route. */
export type AdminCaller =
  | { readonly kind: 'operator' }
  | { readonly kind: 'team'; readonly team: Team }
  /** No key on a keyed mock: a tenant-scoped route then wants the tenant's own App.Admin bearer token. */
  | { readonly kind: 'tenant-admin' };

export const OPERATOR: AdminCaller = { kind: 'operator' };
