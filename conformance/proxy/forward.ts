import { type AddressInfo, createServer, isIP, connect as netConnect, type Server, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { reasonOf } from './bad-gateway.js';
import { ConnectionPair, type PairSettings } from './connection-pair.js';
import type { CapturedExchange } from './exchange.js';
import type { Interceptor } from './intercept.js';

export type { CapturedExchange } from './exchange.js';
export type { InterceptedAnswer, InterceptedRequest, Interceptor } from './intercept.js';

export interface ForwardingProxyOptions {
  /** Base URL of the target, may have a base path ("http://host:port/base"). */
  target: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Bytes of each body kept for `onExchange`; default 1 MiB. */
  captureBytes?: number;
  /** Add `Via: <version> opsapi-proxy` to forwarded requests (default false: adds nothing). */
  via?: boolean;
  /** Per exchange towards the target (connect, headers, and the gaps between body chunks); default 30 s. */
  timeoutMs?: number;
  /** Requests the proxy answers itself (e.g. GET /__proxy/report): those whose path starts with `prefix`. */
  intercept?: Interceptor;
  /** Called once per exchange when it ended (also on errors). */
  onExchange: (exchange: CapturedExchange) => void;
}

export interface RunningForwarder {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;
/** How long `close()` lets exchanges in flight finish before it cuts their connections (inferred). */
const CLOSE_GRACE_MS = 2000;

/** The target's origin and base path (no trailing slash), or why it is not a usable base URL. */
export function parseTarget(
  target: string,
): { ok: true; origin: string; basePath: string } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, error: `the target "${target}" is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `the target "${target}" is not an http(s) URL` };
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return { ok: false, error: `the target "${target}" must be a base URL without query, fragment or credentials` };
  return { ok: true, origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

let warnedAboutObserver = false;

/** Calls the observer; its bug must not break the traffic it observes (inferred), and it is told once. */
function reporter(onExchange: (exchange: CapturedExchange) => void): (exchange: CapturedExchange) => void {
  return (exchange) => {
    try {
      onExchange(exchange);
    } catch (error) {
      if (!warnedAboutObserver) {
        warnedAboutObserver = true;
        process.emitWarning(`opsapi proxy: onExchange threw: ${reasonOf(error)}`);
      }
    }
  };
}

/** Opens connections to the target's origin (TLS for https). */
function connector(origin: URL): () => Socket {
  const port = Number(origin.port) || (origin.protocol === 'https:' ? 443 : 80);
  const host = origin.hostname.replace(/^\[|\]$/g, '');
  if (origin.protocol === 'https:')
    return () => tlsConnect({ host, port, ALPNProtocols: ['http/1.1'], ...(isIP(host) ? {} : { servername: host }) });
  return () => netConnect({ host, port });
}

/**
 * Starts a transparent HTTP proxy in front of `options.target`: every request is forwarded unchanged (method, path,
 * query, headers, body, streamed) but for the hop-by-hop headers and `Host`, which becomes the target's host:port
 * (see hop-by-hop.ts: our mock then answers byte for byte as it does to a direct call), and every answer
 * comes back unchanged (status, status text, headers, body bytes: never decompressed); each finished exchange goes
 * to `onExchange`. Each client connection is paired with a connection to the target of its own
 * (./connection-pair.ts): bytes are parsed on their way (./message-parser.ts), never turned into request and
 * response objects. Why (inferred; measured with bench `proxy`): node:http's server plus an HTTP client per exchange
 * cost the proxy about as much CPU as the mock's own answer. Rejects when the target is not a base URL or the port
 * cannot be listened on.
 */
export async function startForwardingProxy(options: ForwardingProxyOptions): Promise<RunningForwarder> {
  const parsed = parseTarget(options.target);
  if (!parsed.ok) throw new Error(parsed.error);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const captureBytes = options.captureBytes ?? MIB;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`timeoutMs must be above 0, got ${timeoutMs}`);
  if (!Number.isInteger(captureBytes) || captureBytes < 0)
    throw new Error(`captureBytes must be a whole number of 0 or more, got ${captureBytes}`);
  const origin = new URL(parsed.origin);
  let seq = 0;
  const settings: PairSettings = {
    connect: connector(origin),
    hostHeader: origin.host,
    origin: parsed.origin,
    basePath: parsed.basePath,
    captureBytes,
    via: options.via ?? false,
    timeoutMs,
    intercept: options.intercept,
    nextSeq: () => ++seq,
    report: reporter(options.onExchange),
    closing: false,
  };
  const pairs = new Set<ConnectionPair>();
  // Not half-open (as node:http by default): a client that ends its side has left, and what it asked for is dropped.
  const server: Server = createServer((socket) => {
    const pair = new ConnectionPair(socket, settings);
    pairs.add(pair);
    socket.once('close', () => pairs.delete(pair));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        settings.closing = true;
        for (const pair of pairs) pair.endIfIdle();
        const cut = setTimeout(() => {
          for (const pair of pairs) pair.destroy();
        }, CLOSE_GRACE_MS);
        await closed;
        clearTimeout(cut);
      })();
      return closing;
    },
  };
}
