import { isIP } from 'node:net';
import type { Clock } from '../clock.js';
import { BLOCKED_CODE, BLOCKED_EXCERPT, type EndpointGuard } from './address.js';
import { ExcerptHandler } from './excerpt-handler.js';
import type { AttemptOutcome, DeliveryRequest, Transport } from './transport.js';

/** Settings of the undici transport. */
interface UndiciTransportOptions {
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
  /** The SSRF guard (on a non-loopback host, or `--block-private-endpoints`), or null to reach any address. */
  readonly guard: EndpointGuard | null;
  /** Real time, for the outcome's `startedAtMs`/`endedAtMs`. */
  readonly clock: Clock;
}

/**
 * The `Transport` of the mock: sends webhook requests with undici.
 *
 * - Connections are reused (a keep-alive pool per receiver, ./origin-pools.ts).
 * - One per-attempt timeout covers everything: DNS, connect, request, response headers and the body read; when
 *   it expires the attempt is a `Timeout` and the connection is dropped, so a hanging receiver costs exactly one
 *   timeout per attempt.
 * - Redirects are never followed: a 3xx is an `HttpStatus` failure like any other non-2xx status.
 * - At most `MAX_READ_BYTES` of the response body are read and only `EXCERPT_CHARS` characters kept.
 * - Refused, reset or unresolvable connections are `ConnectionError`s.
 * - With a `guard` (the SSRF guard), an IP literal is checked before sending and every address a host name resolves
 *   to is checked at connect time, the very addresses the socket then uses (no window for DNS rebinding between a check
 *   and the connection); a refused address gives `BlockedEndpoint`, its excerpt only saying so.
 */
export class UndiciTransport implements Transport {
  /** The pools of ./origin-pools.ts, whose module (and undici) is loaded with the first delivery. */
  private pools: Promise<import('./origin-pools.js').OriginPools> | null = null;

  constructor(private readonly options: UndiciTransportOptions) {}

  async send(req: DeliveryRequest): Promise<AttemptOutcome> {
    const { timeoutMs, guard, clock } = this.options;
    const now = () => clock.now();
    // Set again once the agent is loaded (lazily, on the first delivery of the process): loading it is the mock's own
    // set-up, not the receiver's time to answer.
    let startedAtMs = now();
    const outcome: OutcomeOf = (errorKind, responseStatus = null, excerpt = null) => ({
      success: errorKind === null,
      responseStatus,
      responseBodyExcerpt: excerpt,
      errorKind,
      startedAtMs,
      endedAtMs: now(),
    });

    let url: URL;
    try {
      url = new URL(req.endpoint);
    } catch {
      return outcome('ConnectionError');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return outcome('ConnectionError');
    // An IP literal is never looked up (node:net connects to it directly): it is checked here instead.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (guard && isIP(host) && guard.refuses(host, host)) return outcome('BlockedEndpoint', null, BLOCKED_EXCERPT);

    const dispatcher = await this.dispatcher();
    startedAtMs = now();
    // One deadline for the whole attempt: it settles the attempt at once, wherever the request is (still connecting
    // included), and aborts it as soon as undici lets it (./excerpt-handler.ts).
    return new Promise<AttemptOutcome>((resolve) => {
      const handler = new ExcerptHandler((errorKind, status, excerpt) => {
        clearTimeout(deadline);
        resolve(outcome(errorKind, status, errorKind === 'BlockedEndpoint' ? BLOCKED_EXCERPT : excerpt));
      }, classify);
      const deadline = setTimeout(() => handler.expire(), timeoutMs);
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          body: req.body,
          headers: req.headers,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        handler,
      );
    });
  }

  async close(): Promise<void> {
    await (await this.pools)?.close();
  }

  /** The keep-alive pools of this transport; with a guard, their sockets only reach what it allows. */
  private dispatcher(): Promise<import('./origin-pools.js').OriginPools> {
    this.pools ??= import('./origin-pools.js').then(({ OriginPools }) => new OriginPools(this.options.guard));
    return this.pools;
  }
}

/** The attempt's outcome, timed from its start to now. */
type OutcomeOf = (
  errorKind: AttemptOutcome['errorKind'],
  responseStatus?: number | null,
  excerpt?: string | null,
) => AttemptOutcome;

/** Why a request failed: the per-attempt timeout, the SSRF guard, or any other connection problem. */
function classify(error: unknown): AttemptOutcome['errorKind'] {
  const codes: string[] = [];
  for (
    let e: unknown = error, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (typeof code === 'string') codes.push(code);
    if (typeof name === 'string') codes.push(name);
  }
  if (codes.includes(BLOCKED_CODE)) return 'BlockedEndpoint';
  if (
    codes.some(
      (c) =>
        c === 'TimeoutError' ||
        c === 'UND_ERR_HEADERS_TIMEOUT' ||
        c === 'UND_ERR_BODY_TIMEOUT' ||
        c === 'UND_ERR_CONNECT_TIMEOUT' ||
        c === 'ETIMEDOUT',
    )
  ) {
    return 'Timeout';
  }
  return 'ConnectionError';
}
