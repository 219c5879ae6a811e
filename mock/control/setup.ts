import type { ApiKey } from '../../spec/schemas/access.js';
import type { Subscription } from '../../spec/schemas/notifications.js';
import { findEventVersion } from '../../spec/events/catalog.js';
import { markSetUpSubscription } from '../client-checks/tenants.js';
import { addApiKey, type KeyHolder } from '../handlers/access.js';
import { addSubscription, endpointProblem } from '../handlers/notifications.js';
import type { Store } from '../store/store.js';

/**
 * Writes a test harness makes to set up a tenant without a request (the Testing API's receivers and keys), through
 * the same write seam as the handlers (`TenantState.commit`), so they persist and behave as if made over HTTP.
 * Why not over HTTP (inferred): set-up is not the client's traffic, so it must not appear in the tenant's request
 * journal or coverage, spend its rate limit, or meet a planted fault. The rules are the handlers' own (Events,
 * point 3: the endpoint URL and the event version are checked); a breach is a test's programming error: thrown.
 */
export function setupWrites(store: Store, org: string) {
  return {
    subscribe: (endpoint: string, eventName: string, eventVersion: number): Subscription => {
      const problem = endpointProblem(endpoint);
      if (problem) throw new RangeError(`subscribe: the endpoint '${endpoint}' ${problem}`);
      if (!findEventVersion(eventName, eventVersion))
        throw new RangeError(`subscribe: the catalog has no event '${eventName}' version ${eventVersion}`);
      const tenant = store.tenant(org);
      const subscription = addSubscription(tenant, { endpoint, eventName, eventVersion });
      // The kit's own listener, not the client's receiver: its deliveries are not judged by client checks.
      markSetUpSubscription(tenant, subscription.id);
      return structuredClone(subscription);
    },
    unsubscribe: (id: string): boolean => {
      const tenant = store.existing(org);
      if (!tenant?.subscriptions.has(id)) return false;
      tenant.commit('subscription', id, null);
      return true;
    },
    createApiKey: (name: string, holder: KeyHolder): ApiKey => {
      if (name.length === 0) throw new RangeError('createApiKey: the name must not be empty');
      return structuredClone(addApiKey(store.tenant(org), name, holder));
    },
  };
}
