import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent } from 'undici';
import type { Clock } from '../clock.js';
import { isPrivateAddress } from './address.js';
import { ExcerptHandler } from './excerpt-handler.js';
import type { AttemptOutcome, DeliveryRequest, Transport } from './transport.js';

/** Error code of a connection refused by the SSRF guard at connect time. */
const BLOCKED_CODE = 'OPSAPI_BLOCKED_ENDPOINT';

/** Settings of the undici transport. */
export interface UndiciTransportOptions {
  /** Per-attempt timeout, ms. */
  readonly timeoutMs: number;
  /** Refuse private and loopback receivers (the SSRF guard, `--block-private-endpoints`). */
  readonly blockPrivate: boolean;
  /** Real time, for the outcome's `startedAtMs`/`endedAtMs`. */
  readonly clock: Clock;
}

/**
 * The `Transport` of the mock: sends webhook requests with undici.
 *
 * - Connections are reused (keep-alive agents).
 * - One per-attempt timeout covers everything: DNS, connect, request, response headers and the body read; when
 *   it expires the attempt is a `Timeout` and the connection is dropped, so a hanging receiver costs exactly one
 *   timeout per attempt.
 * - Redirects are never followed: a 3xx is an `HttpStatus` failure like any other non-2xx status.
 * - At most `MAX_READ_BYTES` of the response body are read and only `EXCERPT_CHARS` characters kept.
 * - Refused, reset or unresolvable connections are `ConnectionError`s.
 * - With `blockPrivate` (the SSRF guard), an IP literal is checked before sending and a host name is checked on
 *   every address it resolves to at connect time, the very addresses the socket then uses (no window for DNS
 *   rebinding between a check and the connection); a private or loopback address gives `BlockedEndpoint`.
 */
export class UndiciTransport implements Transport {
  /**
   * undici, loaded with the first delivery: most mocks never deliver, and loading it was ~30 ms of every start
   * (measured on the compiled CLI).
   */
  private undici: Promise<typeof import('undici')> | null = null;
  private agent: Agent | null = null;
  private guardedAgent: Agent | null = null;

  constructor(private readonly options: UndiciTransportOptions) {}

  async send(req: DeliveryRequest): Promise<AttemptOutcome> {
    const { timeoutMs, blockPrivate, clock } = this.options;
    const now = () => clock.now();
    const startedAtMs = now();
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
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (blockPrivate && isIP(host) && isPrivateAddress(host)) return outcome('BlockedEndpoint');

    const dispatcher = await this.dispatcher(blockPrivate);
    // One deadline for the whole attempt: it settles the attempt at once, wherever the request is (still connecting
    // included), and aborts it as soon as undici lets it (./excerpt-handler.ts).
    return new Promise<AttemptOutcome>((resolve) => {
      const handler = new ExcerptHandler((errorKind, status, excerpt) => {
        clearTimeout(deadline);
        resolve(outcome(errorKind, status, excerpt));
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
    await Promise.all([this.agent?.close().catch(() => undefined), this.guardedAgent?.close().catch(() => undefined)]);
  }

  /** The keep-alive agent of this transport, or with `guarded` the one whose sockets only reach public addresses. */
  private async dispatcher(guarded: boolean): Promise<Agent> {
    this.undici ??= import('undici');
    const { Agent } = await this.undici;
    if (!guarded) {
      this.agent ??= new Agent({ keepAliveTimeout: 10_000, connections: 128, pipelining: 1 });
      return this.agent;
    }
    this.guardedAgent ??= new Agent({
      keepAliveTimeout: 10_000,
      connections: 128,
      pipelining: 1,
      connect: { lookup: publicOnlyLookup },
    });
    return this.guardedAgent;
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

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that refuses private and loopback addresses: it resolves every address of the host and
 * fails with `OPSAPI_BLOCKED_ENDPOINT` when any is private, so the socket can only use checked addresses.
 */
function publicOnlyLookup(
  hostname: string,
  options: { family?: number | string; all?: boolean; hints?: number },
  callback: LookupCallback,
): void {
  const family =
    options.family === 'IPv4'
      ? 4
      : options.family === 'IPv6'
        ? 6
        : typeof options.family === 'number'
          ? options.family
          : 0;
  dnsLookup(
    hostname,
    { family, all: true, ...(options.hints !== undefined ? { hints: options.hints } : {}) },
    (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      if (list.length === 0 || list.some((a) => isPrivateAddress(a.address))) {
        const blocked: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to a private or loopback address; refused by --block-private-endpoints`,
        );
        blocked.code = BLOCKED_CODE;
        return callback(blocked, []);
      }
      if (options.all) return callback(null, list);
      const first = list[0] as LookupAddress;
      return callback(null, first.address, first.family);
    },
  );
}
