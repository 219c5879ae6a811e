import type { Clock } from '../clock.js';
import { RateLimiter, type Rate } from '../rate-limit.js';
import { realTimers, type Timers } from './timers.js';

/**
 * The delivery slots of the webhook engine, shared fairly by the tenants of one mock (docs/DESIGN.md, "Shared
 * sandbox"). Inferred: the reference says nothing of delivery capacity; a mock many teams share must not let one
 * team's slow or silent receivers delay another team's deliveries.
 *
 * Three bounds: at most `global` attempts in flight over all tenants, at most `perTenant` of one tenant, and at most
 * `perEndpoint` of one tenant to one receiver (its origin). An attempt that cannot start waits in its tenant's lane
 * of its receiver; when a slot frees, the tenants with an attempt that may start are served in turn (round robin),
 * and inside a tenant its receivers are served in turn, so:
 * - a tenant whose receivers never answer holds at most `perTenant` of the slots: as long as `perTenant` is below
 *   `global`, another tenant's attempt starts at once, however many attempts the first has waiting;
 * - one silent receiver of a tenant holds at most `perEndpoint` of the tenant's share, and its other receivers are
 *   still served;
 * - a tenant's waiting attempts are dropped at once when it is reset or evicted (`cancel`), and never start.
 *
 * The bound per receiver is per tenant, not per origin over all tenants (the bound before tenants were served in
 * turn): a receiver host several teams point at (a shared relay, one test host) would otherwise let one team's
 * hanging attempts hold the origin's slots for every team.
 */

/** The bounds of the slots. */
interface SlotBounds {
  readonly global: number;
  readonly perTenant: number;
  readonly perEndpoint: number;
}

/**
 * The bounds from the options: `perTenant` defaults to a quarter of `global` (at least 2 when `global` allows, so one
 * silent receiver never holds a tenant's every slot) and `perEndpoint` to half of `perTenant`; each is at most the
 * bound above it (inferred: four tenants saturating their receivers still leave a fifth nothing to wait for only
 * when `global` is larger than four shares; the defaults keep 64 slots, 16 per tenant, 8 per receiver).
 */
export function slotBounds(global: number, perTenant?: number | null, perEndpoint?: number | null): SlotBounds {
  const g = Math.max(1, Math.floor(global));
  const t = Math.max(1, Math.min(g, Math.floor(perTenant ?? Math.max(Math.min(g, 2), Math.ceil(g / 4)))));
  const e = Math.max(1, Math.min(t, Math.floor(perEndpoint ?? Math.ceil(t / 2))));
  return { global: g, perTenant: t, perEndpoint: e };
}

/**
 * The attempts waiting in a lane, in arrival order, with O(1) take and O(1) removal of any one of them (a Set keeps
 * insertion order): an attempt whose notification ended while it waited leaves at once instead of holding memory
 * until its turn, which behind a silent receiver may never come soon.
 */
class WaitingQueue<T> {
  private readonly items = new Set<T>();

  get size(): number {
    return this.items.size;
  }

  push(item: T): void {
    this.items.add(item);
  }

  take(): T | undefined {
    const item = this.items.values().next().value;
    if (item !== undefined) this.items.delete(item);
    return item;
  }

  remove(item: T): boolean {
    return this.items.delete(item);
  }

  drain(): T[] {
    const rest = [...this.items];
    this.items.clear();
    return rest;
  }
}

/** Files a waiter under its key: alone, or with the others of the key in a Set. */
function addKeyed(byKey: Map<string, Waiter | Set<Waiter>>, key: string, waiter: Waiter): void {
  const keyed = byKey.get(key);
  if (keyed === undefined) byKey.set(key, waiter);
  else if (keyed instanceof Set) keyed.add(waiter);
  else byKey.set(key, new Set([keyed, waiter]));
}

/** Takes a waiter off its key (the key goes once it has none). */
function removeKeyed(byKey: Map<string, Waiter | Set<Waiter>>, key: string, waiter: Waiter): void {
  const keyed = byKey.get(key);
  if (keyed === waiter) byKey.delete(key);
  else if (keyed instanceof Set) {
    keyed.delete(waiter);
    if (keyed.size === 0) byKey.delete(key);
  }
}

/** An attempt waiting for a slot. */
interface Waiter {
  /** What the attempt may be cancelled by while it waits (its notification), if anything. */
  readonly key: string | undefined;
  readonly endpoint: string;
  start(): void;
  cancel(): void;
}

/** A tenant's attempts to one receiver: in flight, and waiting in arrival order. */
interface Lane {
  active: number;
  readonly waiting: WaitingQueue<Waiter>;
}

/** A tenant's lanes, and its receivers whose next attempt may start, in turn order. */
interface TenantLanes {
  active: number;
  waiting: number;
  readonly lanes: Map<string, Lane>;
  readonly ready: Set<string>;
  /**
   * The waiting attempts by key (`run`'s `key`), for `cancelKey`: the one attempt of a key (nearly always: a key is a
   * notification), or a Set of them. A Set per attempt was most of what an attempt waiting behind a silent receiver
   * kept alive.
   */
  readonly byKey: Map<string, Waiter | Set<Waiter>>;
  /** Whether the tenant is out of turn until its pace gives it its next start (`FairSlots` `pace`). */
  paced: boolean;
}

/**
 * A pace of attempt starts per tenant: at most `rate.limit` per `rate.windowMs`, in bursts of up to `rate.limit`
 * (a token bucket, ../rate-limit.ts), on `clock`. See `WebhookEngineOptions.perTenantRate` for why.
 */
interface TenantPace {
  readonly rate: Rate;
  readonly clock: Clock;
}

/** Attempts of one tenant, as the slots see them. */
export interface TenantLoad {
  readonly active: number;
  readonly waiting: number;
}

/** The load of the slots as the engine tells it: over all tenants, per tenant with attempts, and the bounds. */
export interface DeliveryLoad {
  readonly total: TenantLoad;
  readonly bounds: SlotBounds;
  tenants(): Iterable<[string, TenantLoad]>;
}

/**
 * How long a slot stays taken after its attempt ended, by the attempt's result: 0 frees it at once. See
 * `WebhookEngineOptions.unreachablePauseMs` for why an attempt that reached no receiver keeps its slot a while.
 */
type RestAfter<T> = (result: T) => number;

export class FairSlots {
  private active = 0;
  private waitingCount = 0;
  private readonly tenants = new Map<string, TenantLanes>();
  /** Tenants with an attempt that may start, in turn order (a Set keeps insertion order: taken first, put back last). */
  private readonly turns = new Set<string>();
  /** The starts each tenant has left of its pace, when the slots were given one. */
  private readonly pace: { readonly starts: RateLimiter; readonly clock: Clock } | undefined;

  /**
   * `onRoom`: told that a tenant's receiver has one attempt fewer waiting (it started, or was dropped), so attempts
   * held back until that receiver's batch moves on can come (./held-attempts.ts). `timers`: for slots resting after
   * an attempt (`run`'s `restAfter`) and for the pace's refills. `pace`: the starts of each tenant (none when absent).
   */
  constructor(
    readonly bounds: SlotBounds,
    private readonly onRoom: (tenant: string, endpoint: string) => void = () => undefined,
    private readonly timers: Timers = realTimers,
    pace?: TenantPace | null,
  ) {
    this.pace = pace ? { starts: new RateLimiter(pace.rate), clock: pace.clock } : undefined;
  }

  /** Attempts of a tenant waiting for a slot of one receiver. */
  waitingIn(tenant: string, endpoint: string): number {
    return this.tenants.get(tenant)?.lanes.get(endpoint)?.waiting.size ?? 0;
  }

  /**
   * Runs `task` once a slot of `tenant` and its receiver `endpoint` is free and its turn comes (told whether it had
   * to wait for it); resolves with the task's result, or `undefined` when the attempt was cancelled before it started
   * (the tenant's waiting attempts, `cancel`, or those of `key`, `cancelKey`). `restAfter`: how long the slot stays
   * taken once the task resolved (the caller hears of the result at once; only the next attempt waits).
   */
  run<T>(
    tenant: string,
    endpoint: string,
    task: (waited: boolean) => Promise<T>,
    key?: string,
    restAfter?: RestAfter<T>,
  ): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      const lanes = this.lanesOf(tenant);
      let lane = lanes.lanes.get(endpoint);
      if (!lane) {
        lane = { active: 0, waiting: new WaitingQueue<Waiter>() };
        lanes.lanes.set(endpoint, lane);
      }
      const waiter = {
        key,
        endpoint,
        /** Whether the attempt waited for its slot (false: it started in this call). */
        waited: false,
        start: () => {
          let running: Promise<T>;
          try {
            running = task(waiter.waited);
          } catch (error) {
            running = Promise.reject(error);
          }
          // The slot is free before the caller hears of the result (its next attempt may take it at once), unless
          // the result asks it to rest: then the caller hears at once and the slot frees later.
          running.then(
            (result) => {
              const rest = restAfter?.(result) ?? 0;
              if (rest > 0) {
                resolve(result);
                this.timers.setTimeout(() => this.finished(tenant, endpoint), rest);
              } else {
                this.finished(tenant, endpoint);
                resolve(result);
              }
            },
            (error: unknown) => {
              this.finished(tenant, endpoint);
              reject(error);
            },
          );
        },
        cancel: () => resolve(undefined),
      };
      lane.waiting.push(waiter);
      if (key !== undefined) addKeyed(lanes.byKey, key, waiter);
      lanes.waiting++;
      this.waitingCount++;
      this.review(tenant, lanes, endpoint, lane);
      this.pump();
      waiter.waited = true;
    });
  }

  /** Drops every waiting attempt of a tenant (they resolve `undefined`); attempts in flight finish. Returns how many. */
  cancel(tenant: string): number {
    const lanes = this.tenants.get(tenant);
    if (!lanes) return 0;
    const dropped: Waiter[] = [];
    for (const [endpoint, lane] of lanes.lanes) {
      dropped.push(...lane.waiting.drain());
      if (lane.active === 0) lanes.lanes.delete(endpoint);
    }
    this.waitingCount -= lanes.waiting;
    lanes.waiting = 0;
    lanes.ready.clear();
    lanes.byKey.clear();
    this.turns.delete(tenant);
    if (lanes.active === 0) this.tenants.delete(tenant);
    for (const waiter of dropped) waiter.cancel();
    return dropped.length;
  }

  /**
   * Drops the waiting attempts of a tenant run with `key` (they resolve `undefined`, never start); one in flight
   * finishes. Returns how many were dropped.
   */
  cancelKey(tenant: string, key: string): number {
    const lanes = this.tenants.get(tenant);
    const keyed = lanes?.byKey.get(key);
    if (!lanes || !keyed) return 0;
    lanes.byKey.delete(key);
    const waiters = keyed instanceof Set ? keyed : [keyed];
    let dropped = 0;
    for (const waiter of waiters) {
      const lane = lanes.lanes.get(waiter.endpoint);
      if (!lane?.waiting.remove(waiter)) continue;
      dropped++;
      lanes.waiting--;
      this.waitingCount--;
      if (lane.waiting.size === 0) {
        lanes.ready.delete(waiter.endpoint);
        if (lane.active === 0) lanes.lanes.delete(waiter.endpoint);
      }
      waiter.cancel();
    }
    if (lanes.ready.size === 0) this.turns.delete(tenant);
    if (lanes.active === 0 && lanes.waiting === 0) this.tenants.delete(tenant);
    // Told once the slots are consistent again: what it starts comes through `run` and `pump` afresh.
    for (const waiter of waiters) this.onRoom(tenant, waiter.endpoint);
    return dropped;
  }

  /** Attempts in flight and waiting, over all tenants. */
  get load(): TenantLoad {
    return { active: this.active, waiting: this.waitingCount };
  }

  /** Attempts of one tenant in flight and waiting. */
  loadOf(tenant: string): TenantLoad {
    const lanes = this.tenants.get(tenant);
    return { active: lanes?.active ?? 0, waiting: lanes?.waiting ?? 0 };
  }

  /** Tenants with attempts in flight or waiting, with their load. */
  busyTenants(): IterableIterator<[string, TenantLoad]> {
    return this.tenants.entries();
  }

  /** Starts attempts while a global slot is free and some tenant has one that may start, one per tenant per turn. */
  private pump(): void {
    const started: [string, string][] = [];
    while (this.active < this.bounds.global) {
      const tenant = this.turns.values().next().value;
      if (tenant === undefined) break;
      this.turns.delete(tenant);
      const lanes = this.tenants.get(tenant) as TenantLanes;
      if (this.outOfPace(tenant, lanes)) continue;
      const endpoint = lanes.ready.values().next().value as string;
      lanes.ready.delete(endpoint);
      const lane = lanes.lanes.get(endpoint) as Lane;
      const waiter = lane.waiting.take() as Waiter;
      if (waiter.key !== undefined) removeKeyed(lanes.byKey, waiter.key, waiter);
      lanes.waiting--;
      this.waitingCount--;
      lane.active++;
      lanes.active++;
      this.active++;
      this.review(tenant, lanes, endpoint, lane);
      waiter.start();
      started.push([tenant, endpoint]);
    }
    // Told once the loop is done, so what it starts comes through `run` and a pump of its own, not into this loop.
    for (const [tenant, endpoint] of started) this.onRoom(tenant, endpoint);
  }

  private finished(tenant: string, endpoint: string): void {
    this.active--;
    const lanes = this.tenants.get(tenant) as TenantLanes;
    lanes.active--;
    const lane = lanes.lanes.get(endpoint) as Lane;
    lane.active--;
    if (lane.active === 0 && lane.waiting.size === 0) lanes.lanes.delete(endpoint);
    if (lanes.active === 0 && lanes.waiting === 0) this.tenants.delete(tenant);
    else this.review(tenant, lanes, endpoint, lane);
    this.pump();
  }

  /** Puts a receiver and its tenant in turn when their next attempt may start (at the end, if not there already). */
  private review(tenant: string, lanes: TenantLanes, endpoint: string, lane: Lane): void {
    if (lane.waiting.size > 0 && lane.active < this.bounds.perEndpoint) lanes.ready.add(endpoint);
    if (lanes.ready.size > 0 && lanes.active < this.bounds.perTenant && !lanes.paced) this.turns.add(tenant);
  }

  /**
   * Takes a start of the tenant's pace; when there is none, takes the tenant out of turn until there is one (then it
   * is put back, last) and says so.
   */
  private outOfPace(tenant: string, lanes: TenantLanes): boolean {
    if (!this.pace) return false;
    const take = this.pace.starts.take(tenant, this.pace.clock.now());
    if (take.ok) return false;
    lanes.paced = true;
    this.timers.setTimeout(() => {
      lanes.paced = false;
      // Dropped meanwhile (a reset, or nothing left to start): its lanes are no longer the slots' own.
      if (this.tenants.get(tenant) !== lanes) return;
      const endpoint = lanes.ready.values().next().value;
      const lane = endpoint === undefined ? undefined : lanes.lanes.get(endpoint);
      if (endpoint !== undefined && lane) this.review(tenant, lanes, endpoint, lane);
      this.pump();
    }, take.retryAfterMs);
    return true;
  }

  private lanesOf(tenant: string): TenantLanes {
    let lanes = this.tenants.get(tenant);
    if (!lanes) {
      lanes = { active: 0, waiting: 0, lanes: new Map(), ready: new Set(), byKey: new Map(), paced: false };
      this.tenants.set(tenant, lanes);
    }
    return lanes;
  }
}
