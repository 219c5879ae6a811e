import type { Answer } from '../../handlers/context.js';
import { unauthorized } from '../../problems.js';
import { evictionWarning } from '../../store/eviction-warning.js';
import { type Authentication, authenticate } from '../credentials.js';
import type { Exchange, OperationRoute } from '../exchange.js';

/**
 * Authentication, point 3: a request without valid authentication gets 401 with no `code`. A valid one names the
 * principal and its tenant (created on first use; a warning header when that evicted another tenant). Synchronous
 * when the credentials are judged without waiting (a token verified before: most requests).
 */
export function credentials(x: Exchange, route: OperationRoute): Answer | undefined | Promise<Answer | undefined> {
  const { verifier, store, clock } = route.services;
  const auth = authenticate(x.req.headers, verifier, store, clock.now());
  return auth instanceof Promise ? auth.then((a) => admit(x, route, a)) : admit(x, route, auth);
}

/** The 401 of refused credentials, or the principal and its tenant set on the exchange. */
function admit(x: Exchange, route: OperationRoute, auth: Authentication): Answer | undefined {
  if (!auth.ok) return unauthorized(x.ref, auth.reason);
  const { store } = route.services;
  const tenant = store.tenant(auth.principal.org);
  x.principal = auth.principal;
  x.tenant = tenant;
  x.req.tenantOrg = tenant.org;
  const evicted = evictionWarning(tenant, store.options.maxTenants);
  if (evicted) x.reply.header('warning', evicted);
  return undefined;
}
