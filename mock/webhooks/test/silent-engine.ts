import { DEFAULT_SEED } from '../../../fixtures/seed/index.js';
import { defaultOptions } from '../../options.js';
import { Store } from '../../store/store.js';
import { WebhookEngine } from '../engine.js';
import type { WebhookEngineOptions } from '../engine-options.js';
import { hmacSigner } from '../signer.js';
import { FakeTime } from './fake-time.js';
import { FakeTransport } from './fake-transport.js';

/** The event the tenant of `silentEngine` is subscribed to. */
const SILENT_EVENT = 'Warehouse.Shipment.Shipped';

/**
 * An engine on a real store, with fake time and timers and a receiver that never answers (no socket), and one tenant
 * subscribed `subscriptions` times to SILENT_EVENT, subscription `i` at `endpointOf(i)`. `emit` fans the event out
 * and gives the new notifications' ids. The attempts under way never end: close the engine without waiting for it.
 */
export function silentEngine(
  options: Omit<WebhookEngineOptions, 'retrySchedule' | 'concurrency'>,
  subscriptions: number,
  endpointOf: (i: number) => string,
) {
  const time = new FakeTime();
  const transport = new FakeTransport(time);
  transport.answer = () => new Promise(() => undefined);
  const store = new Store({ seed: DEFAULT_SEED, skus: 5, maxTenants: 10, webhookKey: 'silent-test', clock: time });
  const engine = new WebhookEngine(
    store,
    { retrySchedule: defaultOptions().retrySchedule, concurrency: 64, ...options },
    { clock: time, transport, signer: hmacSigner, timers: time },
  );
  const tenant = store.tenant('silent-test');
  for (let i = 0; i < subscriptions; i++)
    tenant.commit('subscription', `sub_${i}`, {
      id: `sub_${i}`,
      endpoint: endpointOf(i),
      eventName: SILENT_EVENT,
      eventVersion: 1,
      createdAt: tenant.nowIso(),
    });
  const emit = (): string[] => {
    const emission = engine.emit(tenant, { eventName: SILENT_EVENT });
    if ('error' in emission) throw new Error(emission.error);
    return emission.notifications;
  };
  return { time, transport, store, engine, tenant, emit };
}
