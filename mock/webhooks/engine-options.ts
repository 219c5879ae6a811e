import type { Clock } from '../clock.js';
import type { Rate } from '../rate-limit.js';
import type { Job } from './runtime.js';
import type { SchedulerFactory } from './scheduler.js';
import type { Signer } from './signer.js';
import type { Timers } from './timers.js';
import type { AttemptOutcome, Transport } from './transport.js';

/** Settings of the delivery engine. */
export interface WebhookEngineOptions {
  /** Delay before each automatic attempt, seconds, each relative to the previous attempt's due time (first: to creation). */
  readonly retrySchedule: readonly number[];
  /** Most attempts in flight at once, over all tenants and receivers. */
  readonly concurrency: number;
  /** Most attempts of one tenant in flight at once (null or absent: the default of ./fair-slots.ts `slotBounds`). */
  readonly perTenantConcurrency?: number | null;
  /**
   * Most attempts of one tenant in flight at once to one receiver (one origin: scheme, host and port); null or
   * absent: the default of ./fair-slots.ts `slotBounds`.
   */
  readonly perEndpointConcurrency?: number | null;
  /**
   * Most notifications a tenant keeps; beyond it the oldest finished ones (Success or Failure) are forgotten with
   * their attempts, so a long-running mock under webhook traffic stays bounded. Pending ones are always kept.
   */
  readonly maxNotificationsPerTenant?: number;
  /** Most Pending notifications a tenant keeps; beyond it the oldest are ended as Failure (pending-bound.ts). */
  readonly maxPendingPerTenant?: number;
  /** Most attempts kept in a notification's record; beyond it the oldest is dropped (record.ts). */
  readonly maxAttemptsPerNotification?: number;
  /**
   * How long the slot of an attempt that reached no receiver (the connection was refused or reset, the name did not
   * resolve, the endpoint is blocked) stays taken before the tenant's next attempt to that receiver may have it; 0 or
   * absent: freed at once. Inferred (the reference says nothing of delivery pace; docs/DESIGN.md, "Shared sandbox"):
   * such an attempt fails within a millisecond, so the concurrency bounds alone do not bound how many a tenant makes:
   * 100 subscriptions to a closed port made 6,000 attempts a second, each a new connection, and the mock's one thread
   * spent them on it (another tenant's list p50 went from 0.9 to 2.7 ms, its p99 from ~4 to 13 ms; bench
   * noisy-neighbour). Resting the slot bounds them to the tenant's slots per pause (16 per 50 ms: 320 a second) and
   * stops hammering a receiver that is down; an answering receiver, even one answering 500, is never paused.
   */
  readonly unreachablePauseMs?: number;
  /**
   * Most attempts of one tenant started per window (a token bucket: bursts up to the limit); null or absent: no pace.
   * Inferred (docs/DESIGN.md, "Shared sandbox"): the slot bounds bound attempts in flight, not attempts per second,
   * and a receiver that answers at once lets one tenant's fan-out (its subscriptions times its writes) spend the mock's
   * one thread on deliveries: 100 subscriptions to a receiver answering 204 at once cost 0.63 of a core, 1.04 when it
   * closes every connection, and another tenant's list p99 went from 3.3 to 9-10 ms. A pace bounds that share
   * (default off loopback: common/shared-host-delivery-rate.ts).
   */
  readonly perTenantRate?: Rate | null;
}

/** The parts the engine composes, injected by the composition root (mock/server.ts) or a test. */
export interface WebhookEngineParts {
  /** Real time (the tenants' virtual clocks run on it). */
  readonly clock: Clock;
  /** Sends the requests; closed with the engine. */
  readonly transport: Transport;
  /** Signs each body. */
  readonly signer: Signer;
  /** Default: Node's timers. */
  readonly timers?: Timers;
  /** Makes each tenant's schedule; default an in-memory `TenantScheduler` (a replicated mock shares one in Redis). */
  readonly schedulers?: SchedulerFactory<Job>;
  /**
   * Brings a tenant up to date with what other processes did (a replicated mock: a reset made on another replica
   * drops this copy), before an attempt that waited for its slot is sent; absent: this process sees every reset.
   */
  readonly refresh?: (org: string) => Promise<unknown>;
}

/** How long an attempt's slot rests after its outcome: `unreachablePauseMs` when it reached no receiver, else 0. */
export function slotRest(options: WebhookEngineOptions, outcome: AttemptOutcome | undefined): number {
  return outcome?.errorKind === 'ConnectionError' || outcome?.errorKind === 'BlockedEndpoint'
    ? (options.unreachablePauseMs ?? 0)
    : 0;
}
