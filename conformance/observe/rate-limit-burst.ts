import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient, type Exchange, type RequestSpec } from '../wire/client.js';
import type { RunContext } from '../context.js';

/**
 * Most requests the probe keeps in flight. Limits gives neither the number nor the window of the per-tenant rate limit
 * (inferred): a target 50 ms away answers 16 requests in flight at ~300/s, the mock's whole default limit, so the
 * probe must be able to go well past it; 256 in flight meet 5,000/s at 50 ms and stay a modest load for one tenant.
 */
const MAX_IN_FLIGHT = 256;

/** Shortest time a level of concurrency runs before the probe judges it (a few round trips at 50 ms). */
const STEP_MS = 500;
/** Longest step, for a slow target (a step lasts four mean round trips, within these bounds). */
const MAX_STEP_MS = 2000;
/** A doubling counts as useful when the throughput rose at least this much: else the target is saturated, so hold. */
const RISE = 1.2;
/**
 * A doubling helps while the target is far rather than busy: its round trip stays near the last level's, so twice
 * as many requests in flight make twice the rate. When the mean round trip grows past this many times the last
 * level's, requests queue somewhere (the target, a proxy in front of it, a busy machine): more in flight would only
 * wait longer (and load the target, or time out) without reaching the limit sooner, so the probe holds its level.
 */
const QUEUEING = 1.5;
/**
 * Transport errors (connections refused or reset under the load, timeouts) the burst bears: each ends its worker and
 * stops the ramp; this many end the burst, which then fails with the first unless a 429 came.
 */
const MAX_ERRORS = 16;

/** What a burst past the rate limit sent, and the first 429 it met. */
export interface Burst {
  /** Requests sent in all (those in flight when the 429 came included). */
  sent: number;
  elapsedMs: number;
  spec: RequestSpec;
  limited?: Exchange;
  /** Requests sent, and ms from the start, when the first 429 arrived. */
  toLimit?: { sent: number; ms: number };
  /** Most requests in flight at once. */
  peakInFlight: number;
}

/**
 * Cheap requests until the first 429 (Limits: "exceeding it returns 429"), bounded by `--rate-limit-max-requests` and
 * `--rate-limit-max-seconds` (the runner's rate-limit probe and `opsapi learn` share it). The concurrency ramps: it
 * starts at `max(16, 4 x --concurrency)` requests in flight and doubles every step (0.5 to 2 s) while no 429 came
 * and the throughput still rose with the last doubling, up to `MAX_IN_FLIGHT`. So a target far away (each request a
 * long round trip) is still sent more than its limit, whether that is a token bucket (the mock's) or a fixed window
 * (the probe keeps sending until the window's count is used up). Requests go through a client of their own, whose
 * connection pool is as large as the ramp (the run's client keeps `2 x --concurrency` connections), closed after;
 * their exchanges join the run's, so the aggregate checks judge the 429 like any other answer. On a mock the probe
 * runs in a tenant of its own (the `rateLimit` credential), so other checks never meet its 429s.
 */
export async function burstPastTheLimit(run: RunContext, name: string): Promise<Burst> {
  const { rateLimitMaxRequests, rateLimitMaxSeconds, concurrency } = run.options;
  const token = run.credentials.rateLimit;
  const spec: RequestSpec = {
    method: 'GET',
    path: '/v1/admin/tenants/self',
    honour429: false,
    auth: token ? { bearer: token } : 'main',
  };
  const client = new HttpClient({ ...run.client.options, concurrency: MAX_IN_FLIGHT, pace: null });
  const started = performance.now();
  const deadline = started + rateLimitMaxSeconds * 1000;
  const burst: Burst = { sent: 0, elapsedMs: 0, spec, peakInFlight: 0 };
  const errors: unknown[] = [];
  let inFlight = 0;
  let completed = 0;
  let latencyMs = 0;
  let alive = 0;
  let wake: () => void = () => undefined;
  const workers: Promise<void>[] = [];

  const bounded = () => burst.sent < rateLimitMaxRequests && performance.now() < deadline;
  const going = () => !burst.limited && errors.length < MAX_ERRORS && bounded();
  const worker = async () => {
    try {
      while (going()) {
        burst.sent++;
        inFlight++;
        burst.peakInFlight = Math.max(burst.peakInFlight, inFlight);
        try {
          const ex = await client.send(name, spec, false);
          completed++;
          latencyMs += ex.durationMs;
          if (ex.status === 429 && !burst.limited) {
            burst.limited = ex;
            burst.toLimit = { sent: burst.sent, ms: Math.round(performance.now() - started) };
          }
        } finally {
          inFlight--;
        }
      }
    } catch (error) {
      errors.push(error);
    } finally {
      alive--;
      if (!going() || alive === 0) wake();
    }
  };
  const grow = (target: number) => {
    while (workers.length < Math.min(target, MAX_IN_FLIGHT) && errors.length === 0 && going()) {
      alive++;
      workers.push(worker());
    }
  };

  try {
    grow(Math.max(16, concurrency * 4));
    // The ramp: each step, double the requests in flight while the throughput still rises.
    let levelRate = 0;
    let mark = { at: started, completed: 0, latencyMs: 0 };
    // The mean round trip at the level last doubled from: a later level slower than QUEUEING times it stops the ramp.
    let levelLatency: number | undefined;
    for (let step = 0; going() && alive > 0 && step < 10_000; step++) {
      const stepMs = Math.min(MAX_STEP_MS, Math.max(STEP_MS, completed ? (4 * latencyMs) / completed : STEP_MS));
      const woken = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const timer = new AbortController();
      const slept = sleep(Math.max(1, Math.min(stepMs, deadline - performance.now())), undefined, {
        signal: timer.signal,
      }).catch(() => undefined);
      await Promise.race([slept, woken]);
      timer.abort();
      if (!going() || workers.length >= MAX_IN_FLIGHT) continue;
      const now = performance.now();
      const finished = completed - mark.completed;
      // Nothing came back within the step (a slow target): judge over a longer span.
      if (finished === 0) continue;
      const rate = finished / (now - mark.at);
      const stepLatency = (latencyMs - mark.latencyMs) / finished;
      mark = { at: now, completed, latencyMs };
      const queueing = levelLatency !== undefined && stepLatency >= levelLatency * QUEUEING;
      if (queueing) break;
      if (rate > levelRate * RISE) {
        levelLatency = stepLatency;
        levelRate = rate;
        grow(workers.length * 2);
      }
    }
    await Promise.all(workers);
  } finally {
    await client.close();
    for (const ex of client.exchanges) run.client.exchanges.push(ex);
  }
  burst.elapsedMs = Math.round(performance.now() - started);
  // Ended by transport errors, not by its bounds: the target could not be probed.
  if (!burst.limited && errors.length > 0 && bounded()) throw errors[0];
  return burst;
}
