import { unauthorized } from '../../problems.js';
import { evictionWarning } from '../../store/eviction-warning.js';
import { authenticate } from '../credentials.js';
import type { Exchange, OperationRoute } from '../exchange.js';

/**
 * Authentication, point 3: a request without valid authentication gets 401 with no `code`. A valid one names the
 * principal and its tenant (created on first use; a warning header when that evicted another tenant).
 */
export async function credentials(x: Exchange, route: OperationRoute) {
  const { verifier, store, clock } = route.services;
  const auth = await authenticate(x.req.headers, verifier, store, clock.now());
  if (!auth.ok) return unauthorized(x.ref, auth.reason);
  const tenant = store.tenant(auth.principal.org);
  x.principal = auth.principal;
  x.tenant = tenant;
  x.req.tenantOrg = tenant.org;
  const evicted = evictionWarning(tenant, store.options.maxTenants);
  if (evicted) x.reply.header('warning', evicted);
  return undefined;
}
