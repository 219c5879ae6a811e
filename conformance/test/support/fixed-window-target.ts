import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in for a deployment far away whose rate limit is a fixed window, not the mock's token bucket. */
export interface FixedWindowTarget {
  url: string;
  /** Answers given so far, by status. */
  readonly answered: { ok: number; limited: number };
  close(): Promise<void>;
}

interface FixedWindowOptions {
  /** Requests allowed per window (all callers together). */
  limit: number;
  windowMs: number;
  /** Delay added to every answer, ms: the round trip to a deployment across a network. */
  latencyMs: number;
}

const CODE = 'COMMON.RATE_LIMIT.EXCEEDED';

/**
 * A tiny `node:http` target: every request counts against a fixed window (windows start at the target's start); past
 * the limit it answers 429 with the problem of Errors / Problem body and only `X-RateLimit-Reset-After-Ms` (the time
 * left in the window) to tell the delay, so a runner that reads `Retry-After` alone would never wait long enough.
 * Other requests get a small tenant. Every answer leaves after `latencyMs`.
 */
export async function startFixedWindowTarget(options: FixedWindowOptions): Promise<FixedWindowTarget> {
  const { limit, windowMs, latencyMs } = options;
  const started = Date.now();
  let window = 0;
  let count = 0;
  const answered = { ok: 0, limited: 0 };
  const server = createServer((req, res) => {
    const now = Date.now();
    const current = Math.floor((now - started) / windowMs);
    if (current !== window) {
      window = current;
      count = 0;
    }
    count++;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const answer = () => {
      if (count > limit) {
        answered.limited++;
        const left = started + (window + 1) * windowMs - now;
        res.writeHead(429, { 'content-type': 'application/problem+json', 'x-ratelimit-reset-after-ms': String(left) });
        res.end(
          JSON.stringify({
            type: `http://${req.headers.host}/errors/${CODE}`,
            title: 'Too Many Requests',
            status: 429,
            detail: 'The request rate limit of the tenant is exceeded.',
            instance: `${req.method} ${path}`,
            code: CODE,
            parameters: {},
          }),
        );
        return;
      }
      answered.ok++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'tenant-1', name: 'Fixed window' }));
    };
    // The count is taken on arrival; the answer travels back for `latencyMs`.
    setTimeout(answer, latencyMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
