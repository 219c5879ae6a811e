import autocannon from 'autocannon';
import { Client } from 'undici';
import { summarise } from './stats.js';

/** One kind of request, varied per request. */
export interface RequestPlan {
  readonly method: 'GET' | 'PUT' | 'POST';
  readonly headers: Readonly<Record<string, string>>;
  /** The path (with query) of the i-th request. */
  path(i: number): string;
  /** The body of the i-th request, if any. */
  body?(i: number): string;
  /** Headers of the i-th request on top of `headers` (e.g. the token of one tenant among many), if any. */
  headersOf?(i: number): Readonly<Record<string, string>>;
  /** Statuses that count as a correct answer. */
  readonly expected: readonly number[];
}

/** What one load run measured. Latencies are client-side, from autocannon's per-response times (float ms). */
export interface LoadRun {
  reqPerSec: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  meanMs: number | null;
  maxMs: number | null;
  responses: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Answers whose status is not among the expected ones. */
  unexpected: number;
  statusCounts: Record<string, number>;
  durationS: number;
}

interface LoadOptions {
  connections: number;
  durationS: number;
  /** Upper bound on requests (the run also stops at `durationS`). */
  maxRequests: number;
}

/** The figures of one load run that started at `t0` (`performance.now()`) and ends now. */
function loadRun(
  latencies: readonly number[],
  t0: number,
  errors: number,
  unexpected: number,
  statusCounts: Record<string, number>,
): LoadRun {
  const elapsed = (performance.now() - t0) / 1000;
  const s = summarise(latencies);
  return {
    reqPerSec: latencies.length / elapsed,
    p50Ms: s.p50,
    p90Ms: s.p90,
    p99Ms: s.p99,
    meanMs: s.mean,
    maxMs: s.max,
    responses: latencies.length,
    errors,
    unexpected,
    statusCounts,
    durationS: elapsed,
  };
}

/**
 * Loads `baseUrl` with autocannon (as a library, in this process) for `durationS` seconds over `connections`
 * keep-alive connections, each request built by `plan`. Bounded by time and count; a watchdog stops the run
 * if autocannon overruns by more than 15 s.
 */
export function runLoad(baseUrl: string, plan: RequestPlan, options: LoadOptions): Promise<LoadRun> {
  let i = 0;
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  let unexpected = 0;
  const expected = new Set(plan.expected);
  const bodyOf = plan.body;
  const headersOf = plan.headersOf;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const instance = autocannon(
      {
        url: baseUrl,
        connections: options.connections,
        duration: options.durationS,
        maxOverallRequests: options.maxRequests,
        // autocannon ends a run only at a sample tick (every second by default), so a run of 0.1 s lasted 1,038 ms
        // (measured): a shorter run samples as often as it lasts. The figures here come from the response events.
        sampleInt: Math.min(1000, options.durationS * 1000),
        timeout: 10,
        requests: [
          {
            method: plan.method,
            headers: { ...plan.headers },
            setupRequest: (request) => {
              const n = i++;
              request.path = plan.path(n);
              if (bodyOf) request.body = bodyOf(n);
              // autocannon hands setupRequest a fresh headers object per request: adding to it is safe.
              if (headersOf) request.headers = { ...request.headers, ...headersOf(n) };
              return request;
            },
          },
        ],
      },
      (error, result) => {
        clearTimeout(watchdog);
        if (error) return reject(error);
        resolve(loadRun(latencies, t0, result.errors + result.timeouts, unexpected, statusCounts));
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
      if (!expected.has(statusCode)) unexpected++;
    });
    const watchdog = setTimeout(() => instance.stop(), (options.durationS + 15) * 1000);
  });
}

export interface PacedLoadOptions {
  connections: number;
  /** Requests per second over all connections, sent on schedule whatever the pace of the answers. */
  ratePerS: number;
  durationS: number;
  /** Upper bound on requests (the run also ends with `durationS`). */
  maxRequests: number;
}

/**
 * Loads `baseUrl` at a fixed rate, as clients in front of a deployment do: request n is due at n / `ratePerS`
 * seconds, on connection n mod `connections` (so the connections take turns, evenly spaced), and is sent when due
 * even if that connection is still busy (it then waits its turn, and the wait counts in its latency). Unlike a
 * closed loop (autocannon, whose `overallRate` lets each connection send its share of a second back to back, then
 * idle), the load neither bunches up nor slows down when answers do. Latency runs from sending to the answer's last
 * byte. Each connection is opened with one request before the schedule starts (not counted). Bounded by time and
 * count; answers not complete within 10 s, or 15 s after the last request was due, count as errors.
 */
export async function runPacedLoad(baseUrl: string, plan: RequestPlan, options: PacedLoadOptions): Promise<LoadRun> {
  const origin = new URL(baseUrl).origin;
  const clients = Array.from(
    { length: options.connections },
    () => new Client(origin, { pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 }),
  );
  const total = Math.max(0, Math.min(options.maxRequests, Math.floor(options.durationS * options.ratePerS)));
  const periodMs = 1000 / options.ratePerS;
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const expected = new Set(plan.expected);
  let unexpected = 0;
  let errors = 0;
  const send = async (client: Client, n: number, measured: boolean): Promise<void> => {
    const sent = performance.now();
    try {
      const headers = plan.headersOf ? { ...plan.headers, ...plan.headersOf(n) } : plan.headers;
      const res = await client.request({ method: plan.method, path: plan.path(n), headers, body: plan.body?.(n) });
      await res.body.arrayBuffer();
      if (!measured) return;
      latencies.push(performance.now() - sent);
      statusCounts[res.statusCode] = (statusCounts[res.statusCode] ?? 0) + 1;
      if (!expected.has(res.statusCode)) unexpected++;
    } catch {
      if (measured) errors++;
    }
  };
  try {
    await Promise.all(clients.map((client, i) => send(client, i, false)));
    const pending: Promise<void>[] = [];
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let next = 0;
      const tick = () => {
        // Timers fire late by up to a millisecond or so: every request due by now goes out, then the next is awaited.
        const now = performance.now();
        while (next < total && t0 + next * periodMs <= now) {
          pending.push(send(clients[next % clients.length] as Client, next, true));
          next++;
        }
        if (next < total) setTimeout(tick, Math.max(0, t0 + next * periodMs - performance.now()));
        else resolve();
      };
      tick();
    });
    // A target that stops answering would hold the queued requests 10 s each: they are cut (errors) 15 s on.
    const watchdog = setTimeout(() => {
      for (const client of clients) client.destroy().catch(() => undefined);
    }, 15_000);
    await Promise.all(pending);
    clearTimeout(watchdog);
    return loadRun(latencies, t0, errors, unexpected, statusCounts);
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }
}
