import { randomInt } from 'node:crypto';
import { injected429Requests } from './plan.js';
import { ClientTraceRecorder } from './recorder.js';
import { clientReport, type ClientProfile, type ClientRun } from './report.js';
import { DEFAULT_JUDGE_OPTIONS, type JudgeOptions } from './trace.js';

/** What starting client checks may say (`POST /__mock/client-checks`, `TenantControl.clientChecks.start`). */
export interface ClientChecksStart {
  profile?: ClientProfile;
  /** The seed of the perturbation plan (default: drawn, and told in the answer and the report). */
  seed?: number;
  /** The delay an injected 429 indicates, seconds (default 1). */
  retryAfterSeconds?: number;
  /** The bound of client.receiver-fast, ms (default 2000, inferred). */
  answerWithinMs?: number;
  /** How long the mock waits for the client's reads after a delivery, or its retry after a 429's delay, ms (default 5000, inferred). */
  readWithinMs?: number;
}

/** What a start answers. */
export interface ClientChecksStarted {
  profile: ClientProfile;
  seed: number;
  startedAt: string;
}

/**
 * The bounds of the start options (inferred: a delay or window past a minute would only stall a test suite; the
 * seed is a non-negative 32-bit integer, as `--seed` elsewhere in the kit).
 */
export const START_BOUNDS = {
  seed: { min: 0, max: 2 ** 31 - 1 },
  retryAfterSeconds: { min: 1, max: 60 },
  answerWithinMs: { min: 1, max: 60_000 },
  readWithinMs: { min: 1, max: 60_000 },
} as const;

/** The first option of a start outside its bounds, in words; null when they all fit. */
export function startOptionsProblem(start: ClientChecksStart): { field: string; detail: string } | null {
  if (start.profile !== undefined && start.profile !== 'observe' && start.profile !== 'certify')
    return { field: 'profile', detail: 'profile must be observe or certify.' };
  for (const [field, { min, max }] of Object.entries(START_BOUNDS)) {
    const value = start[field as keyof typeof START_BOUNDS];
    if (value !== undefined && !(Number.isInteger(value) && value >= min && value <= max))
      return { field, detail: `${field} must be an integer from ${min} to ${max}.` };
  }
  return null;
}

/**
 * One run of client checks for one tenant (docs/DESIGN.md, "Client certification"): the profile, the seed, the
 * options the judges read, the trace recorder, and the state of the perturbations (which `/v1` request gets an
 * injected 429, which notifications and subscriptions were perturbed already). Starting again replaces the run; a
 * reset or an eviction of the tenant drops it with the tenant's state (./tenants.ts).
 */
export class ClientCheckRun {
  readonly profile: ClientProfile;
  readonly seed: number;
  readonly options: JudgeOptions;
  readonly startedAt: number;
  readonly recorder = new ClientTraceRecorder();
  /** The arrival numbers of the requests that get an injected 429 (profile certify). */
  private readonly injectAt: ReadonlySet<number>;
  /** `/v1` requests of the tenant that reached the injection point (authenticated, no `Prefer`). */
  private arrivals = 0;
  /** Notifications whose valid delivery was perturbed, and subscriptions that got the once-per-subscription ones. */
  private readonly perturbedNotifications = new Set<string>();
  /** Each perturbed subscription's number in the run (1: the first the client's traffic reached), which the plan draws from. */
  private readonly perturbedSubscriptions = new Map<string, number>();

  constructor(start: ClientChecksStart, now: number) {
    this.profile = start.profile ?? 'observe';
    this.seed = start.seed ?? randomInt(START_BOUNDS.seed.max);
    this.options = {
      retryAfterSeconds: start.retryAfterSeconds ?? DEFAULT_JUDGE_OPTIONS.retryAfterSeconds,
      answerWithinMs: start.answerWithinMs ?? DEFAULT_JUDGE_OPTIONS.answerWithinMs,
      readWithinMs: start.readWithinMs ?? DEFAULT_JUDGE_OPTIONS.readWithinMs,
    };
    this.startedAt = now;
    this.injectAt = new Set(this.profile === 'certify' ? injected429Requests(this.seed) : []);
  }

  get started(): ClientChecksStarted {
    return { profile: this.profile, seed: this.seed, startedAt: new Date(this.startedAt).toISOString() };
  }

  /**
   * A `/v1` request of the tenant reached the injection point (before the rate limit): the delay of an injected
   * 429 in ms when the plan answers this one, else undefined. A request carrying `Prefer` is neither counted nor
   * answered: what `Prefer` forces is not judged, so a 429 injected there could not be either.
   */
  inject429(prefer: boolean): number | undefined {
    if (this.injectAt.size === 0 || prefer) return undefined;
    this.arrivals++;
    return this.injectAt.has(this.arrivals) ? this.options.retryAfterSeconds * 1000 : undefined;
  }

  /**
   * Whether the valid delivery of a notification is followed by perturbations (profile certify, its first attempt
   * only: retries of a refused notification are not perturbed again), whether it is the first of its subscription, and
   * the subscription's number in the run: the plan draws from it rather than from the subscription's id, which differs
   * from tenant to tenant, so a seed repeats the same perturbations in a fresh tenant.
   */
  perturbs(
    notificationId: string,
    subscriptionId: string,
  ): { firstOfSubscription: boolean; subscriptionNumber: number } | undefined {
    if (this.profile !== 'certify' || this.perturbedNotifications.has(notificationId)) return undefined;
    // Bounded like the trace (inferred): past it, older notifications could be perturbed again; never a leak.
    if (this.perturbedNotifications.size >= 10_000) this.perturbedNotifications.clear();
    this.perturbedNotifications.add(notificationId);
    const known = this.perturbedSubscriptions.get(subscriptionId);
    const subscriptionNumber = known ?? this.perturbedSubscriptions.size + 1;
    if (known === undefined) this.perturbedSubscriptions.set(subscriptionId, subscriptionNumber);
    return { firstOfSubscription: known === undefined, subscriptionNumber };
  }

  /** The report so far (or the final one) at `now`; `target` names the tenant and the mock. */
  report(now: number, target: string): ReturnType<typeof clientReport> {
    const run: ClientRun = {
      profile: this.profile,
      seed: this.seed,
      startedAt: this.startedAt,
      target,
      options: this.options,
    };
    return clientReport(this.recorder.trace(), run, now);
  }
}
