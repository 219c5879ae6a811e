import { SHARED_HOST_DELIVERY_RATE } from '../../common/shared-host-delivery-rate.js';
import type { Rate } from '../rate-limit.js';
import { formatRate, parseRateOption } from './grammars.js';
import { duration, integer, option, parsed } from './kinds.js';

/** `--delivery-rate-per-tenant`'s value: a rate, `off`, or null (`auto`, also when not given: by host, `deliveryRateFor`). */
type DeliveryRateOption = Rate | 'off' | null;

/** The pace of a tenant's delivery attempts a mock runs with: the option's, or by host when it was not given. */
export function deliveryRateFor(option: DeliveryRateOption, loopbackHost: boolean): Rate | null {
  if (option === null) return loopbackHost ? null : SHARED_HOST_DELIVERY_RATE;
  return option === 'off' ? null : option;
}

/**
 * The options that share the webhook delivery slots among tenants and their receivers (mock/webhooks/fair-slots.ts;
 * docs/DESIGN.md, "Shared sandbox"), so that one tenant's silent or closed receivers delay only that tenant; spread
 * into `MOCK_OPTIONS` (mock/options.ts), which documents the table.
 */
export const DELIVERY_SHARE_OPTIONS = {
  /**
   * Most deliveries of one tenant in flight at once: its share of `--delivery-concurrency`, so one tenant's silent
   * receivers never hold the slots another tenant needs (mock/webhooks/fair-slots.ts); null: the default there.
   */
  deliveryConcurrencyPerTenant: option({
    flag: '--delivery-concurrency-per-tenant <n>',
    env: 'DELIVERY_CONCURRENCY_PER_TENANT',
    help: 'webhook deliveries of one tenant in flight at most (tenants waiting are served in turn)',
    value: integer<number | null>(1, 10_000),
    default: null,
    unset: 'a quarter of --delivery-concurrency, at least 2',
  }),
  /** Most deliveries of one tenant to one receiver (origin) in flight at once; null: the default of fair-slots.ts. */
  deliveryConcurrencyPerEndpoint: option({
    flag: '--delivery-concurrency-per-endpoint <n>',
    env: 'DELIVERY_CONCURRENCY_PER_ENDPOINT',
    help: 'webhook deliveries of one tenant to one receiver (scheme, host and port) in flight at most',
    value: integer<number | null>(1, 10_000),
    default: null,
    unset: 'half the per-tenant bound',
  }),
  /**
   * How long a delivery slot rests after an attempt that reached no receiver (refused, reset, unresolved, blocked),
   * so a tenant's subscriptions to a closed port cannot spend the mock's thread on thousands of connections a second
   * (mock/webhooks/engine-options.ts `unreachablePauseMs`). 0: no rest.
   */
  unreachablePauseMs: option({
    flag: '--unreachable-pause <duration>',
    env: 'UNREACHABLE_PAUSE',
    name: 'unreachablePause',
    help: "how long a delivery slot rests after an attempt that reached no receiver (refused, reset, unresolved or blocked endpoint) before the tenant's next attempt to it (e.g. 50ms; 0: none)",
    value: duration({ unitless: 'ms', into: 'ms', min: 0, max: 60_000 }),
    default: 50,
  }),
  /**
   * Most delivery attempts of one tenant started per window (a token bucket; bursts up to the limit), so a fan-out to
   * receivers that answer at once cannot spend the mock's thread (mock/webhooks/engine-options.ts `perTenantRate`).
   */
  deliveryRatePerTenant: option({
    flag: '--delivery-rate-per-tenant <rate>',
    env: 'DELIVERY_RATE_PER_TENANT',
    help: 'webhook delivery attempts of one tenant started at most, N/window (e.g. 200/1s), off, or auto (by host)',
    value: parsed<DeliveryRateOption>({
      parse: (text) => {
        if (text.trim().toLowerCase() === 'auto') return { ok: true, value: null };
        const r = parseRateOption(text);
        return r.ok && r.value === null ? { ok: true, value: 'off' } : r;
      },
      format: (rate) => (rate === null ? 'auto' : formatRate(rate === 'off' ? null : rate)),
      expects: `a rate N/window ('200/1s', '50/100ms'), 'off', or 'auto' (by host)`,
    }),
    default: null,
    unset: `off on a loopback --host, ${formatRate(SHARED_HOST_DELIVERY_RATE)} elsewhere`,
  }),
};
