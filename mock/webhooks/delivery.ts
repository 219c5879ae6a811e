import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPrivateAddress } from './address.js';

/** Characters of a response body kept in an attempt record. */
export const EXCERPT_CHARS = 1024;
/** Bytes read from a response body at most; the rest is discarded unread (a huge body costs nothing). */
const MAX_READ_BYTES = 64 * 1024;

/** What one HTTP delivery attempt produced. */
export interface AttemptOutcome {
  readonly success: boolean;
  readonly responseStatus: number | null;
  readonly responseBodyExcerpt: string | null;
  readonly errorKind: 'HttpStatus' | 'Timeout' | 'ConnectionError' | 'BlockedEndpoint' | null;
  readonly startedAtMs: number;
  readonly endedAtMs: number;
}

/** One request to send. */
export interface DeliveryRequest {
  readonly endpoint: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly blockPrivate: boolean;
}

/**
 * Sends webhook requests with undici: connection reuse (one keep-alive agent), a per-attempt timeout covering
 * connect, headers and body, redirects never followed (a 3xx is a failed attempt), and a bounded body read.
 */
export class Deliverer {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 128, pipelining: 1 });

  async send(req: DeliveryRequest, now: () => number): Promise<AttemptOutcome> {
    const startedAtMs = now();
    const failed = (errorKind: AttemptOutcome['errorKind'], responseStatus: number | null = null, excerpt: string | null = null): AttemptOutcome => ({
      success: false,
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
      return failed('ConnectionError');
    }
    if (req.blockPrivate && (await resolvesToPrivate(url.hostname))) return failed('BlockedEndpoint');
    const signal = AbortSignal.timeout(req.timeoutMs);
    try {
      const res = await request(url, {
        method: 'POST',
        body: req.body,
        headers: req.headers,
        dispatcher: this.agent,
        signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      const excerpt = await readExcerpt(res.body);
      const success = res.statusCode >= 200 && res.statusCode < 300;
      return { success, responseStatus: res.statusCode, responseBodyExcerpt: excerpt, errorKind: success ? null : 'HttpStatus', startedAtMs, endedAtMs: now() };
    } catch (error) {
      const name = (error as { name?: string; code?: string }).name ?? '';
      const code = (error as { code?: string }).code ?? '';
      const timedOut = signal.aborted || name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
      return failed(timedOut ? 'Timeout' : 'ConnectionError');
    }
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy?: () => void; dump?: () => Promise<void> }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_READ_BYTES) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
}

/** SSRF guard (`--block-private-endpoints`): the endpoint's host resolves, at delivery time, to a private address. */
async function resolvesToPrivate(hostname: string): Promise<boolean> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host);
  try {
    const addresses = await lookup(host, { all: true });
    return addresses.some((a) => isPrivateAddress(a.address));
  } catch {
    return false;
  }
}
