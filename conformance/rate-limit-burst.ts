import type { Exchange, RequestSpec } from './client.js';
import type { RunContext } from './context.js';

/** What a burst past the rate limit sent, and the first 429 it met. */
export interface Burst {
  sent: number;
  elapsedMs: number;
  spec: RequestSpec;
  limited?: Exchange;
}

/**
 * Cheap requests from parallel workers until the first 429, bounded by `--rate-limit-max-requests` and
 * `--rate-limit-max-seconds` (the runner's rate-limit probe and `opsapi learn` share it). On a mock it runs in a
 * tenant of its own (the `rateLimit` credential), so other checks never meet its 429s.
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
  const started = Date.now();
  const deadline = started + rateLimitMaxSeconds * 1000;
  const burst: Burst = { sent: 0, elapsedMs: 0, spec };
  await Promise.all(
    Array.from({ length: Math.max(16, concurrency * 4) }, async () => {
      while (!burst.limited && burst.sent < rateLimitMaxRequests && Date.now() < deadline) {
        burst.sent++;
        const ex = await run.client.send(name, spec, false);
        if (ex.status === 429 && !burst.limited) burst.limited = ex;
      }
    }),
  );
  burst.elapsedMs = Date.now() - started;
  return burst;
}
