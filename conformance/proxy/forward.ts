import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { type Dispatcher, Pool } from 'undici';
import { badGatewayBody, reasonOf } from './bad-gateway.js';
import { BodyCapture, type CapturedExchange, pairsOf } from './exchange.js';
import { requestHeadersToForward, responseHeadersOf } from './hop-by-hop.js';

export type { CapturedExchange } from './exchange.js';

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
  /** Requests the proxy answers itself (e.g. GET /__proxy/report): return true when it answered. */
  intercept?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
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
/** Most connections to the target at once; more requests wait in undici's queue (inferred: bounds sockets). */
const MAX_CONNECTIONS = 128;

/** What every exchange of one proxy shares. */
interface Shared {
  readonly pool: Pool;
  readonly origin: string;
  readonly basePath: string;
  readonly captureBytes: number;
  readonly via: boolean;
  readonly onExchange: (exchange: CapturedExchange) => void;
}

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

/** Answers up to this size are written with their head in one go (see onHeaders). */
const CORK_MAX_BYTES = 64 * 1024;

/** The Content-Length of a header list ([name, value, ...]), or undefined. */
function contentLengthOf(headers: readonly string[]): number | undefined {
  for (let i = 0; i < headers.length; i += 2)
    if ((headers[i] as string).length === 14 && (headers[i] as string).toLowerCase() === 'content-length') {
      const n = Number(headers[i + 1]);
      return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
    }
  return undefined;
}

/** The path to ask the target for: its base path, then the path and query as received (origin-form). */
function upstreamPath(basePath: string, target: string): string {
  // An absolute-form target (`GET http://host/path`, as sent to a forward proxy) keeps only its path and query.
  const path = target.charCodeAt(0) === 47 ? target : target.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '') || '/';
  return basePath + path;
}

let warnedAboutObserver = false;

/**
 * One exchange in flight: undici's dispatch handler for the upstream request, which writes the answer to the client as
 * it arrives (never buffered, never decoded) and keeps the first bytes of each body. undici's own handler interface is
 * used on purpose: its core calls it directly with the raw header buffers (names as sent, order kept); the newer
 * controller interface is a wrapper that parses them into an object with lower-cased names.
 */
class Exchange implements Dispatcher.DispatchHandler {
  readonly startedAt = Date.now();
  private readonly t0 = performance.now();
  readonly requestBody: BodyCapture;
  private readonly responseBody: BodyCapture;
  private status = 0;
  private statusText = '';
  private responseHeaders: [string, string][] = [];
  private abortUpstream: ((error?: Error) => void) | null = null;
  private resume: (() => void) | null = null;
  private error: string | undefined;
  private done = false;
  private corked = false;

  constructor(
    private readonly shared: Shared,
    private readonly seq: number,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.requestBody = new BodyCapture(shared.captureBytes);
    this.responseBody = new BodyCapture(shared.captureBytes);
    res.once('close', this.onClientClose);
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.done) abort(new Error('the client went away'));
    else this.abortUpstream = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // 1xx interim answers are the target's and undici's business (node already told the client to go on).
    if (status < 200 || this.done) return true;
    const { all, forwarded } = responseHeadersOf(rawHeaders);
    this.status = status;
    this.statusText = statusText;
    this.responseHeaders = all;
    this.resume = resume;
    try {
      this.res.writeHead(status, statusText, forwarded);
      // A small answer of known length goes out in one write with its head (corked until it ends): a syscall per
      // answer instead of two, the proxy's main cost. Larger or unsized bodies stream, so back-pressure still works.
      const length = contentLengthOf(forwarded);
      if (length !== undefined && length <= CORK_MAX_BYTES) {
        this.res.cork();
        this.corked = true;
      }
    } catch (error) {
      // Node refuses what it cannot write (a header value with a control character): the client gets nothing usable.
      this.fail(`the target's answer cannot be passed on: ${reasonOf(error)}`);
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.done) return false;
    this.responseBody.add(chunk);
    // Corked, the whole (small, sized) answer is held until it ends: no drain comes before, so none is awaited.
    if (this.res.write(chunk) || this.corked) return true;
    // Back-pressure: undici pauses until the client has taken what was written.
    if (this.resume) this.res.once('drain', this.resume);
    return false;
  }

  onComplete(): void {
    if (this.done) return;
    this.res.end(this.finished);
    if (this.corked) {
      this.corked = false;
      this.res.uncork();
    }
  }

  onError(error: Error): void {
    if (this.done) return;
    const reason = reasonOf(error);
    if (this.res.headersSent) {
      this.fail(reason);
      return;
    }
    // The target could not be reached (or failed before its status line): a 502 problem, reported with status 0.
    this.error = reason;
    const body = badGatewayBody(this.req.method ?? 'GET', this.req.url ?? '/', this.shared.origin, reason);
    this.res.writeHead(502, 'Bad Gateway', [
      'Content-Type',
      'application/problem+json',
      'Content-Length',
      String(body.length),
    ]);
    this.res.end(body, this.finished);
  }

  /** Fails an answer already under way: the client's connection is cut (it must not take a partial body as whole). */
  private fail(reason: string): void {
    this.error = reason;
    this.abortUpstream?.(new Error(reason));
    this.report();
    this.res.destroy();
  }

  private readonly finished = (): void => this.report();

  /** The client's side closed: after the answer (nothing to do) or before it ended (abort the upstream request). */
  private readonly onClientClose = (): void => {
    if (this.done) return;
    this.error ??= 'the client closed the connection before the answer was complete';
    this.report();
    this.abortUpstream?.(new Error('the client went away'));
  };

  private report(): void {
    if (this.done) return;
    this.done = true;
    const req = this.req;
    const exchange: CapturedExchange = {
      seq: this.seq,
      startedAt: this.startedAt,
      durationMs: performance.now() - this.t0,
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      httpVersion: req.httpVersion,
      requestHeaders: pairsOf(req.rawHeaders),
      requestBody: this.requestBody.bytes(),
      requestBodySize: this.requestBody.size,
      status: this.status,
      statusText: this.statusText,
      responseHeaders: this.responseHeaders,
      responseBody: this.responseBody.bytes(),
      responseBodySize: this.responseBody.size,
    };
    if (this.error !== undefined) exchange.error = this.error;
    try {
      this.shared.onExchange(exchange);
    } catch (error) {
      // An observer's bug must not break the traffic it observes (inferred); it is told once.
      if (!warnedAboutObserver) {
        warnedAboutObserver = true;
        process.emitWarning(`opsapi proxy: onExchange threw: ${reasonOf(error)}`);
      }
    }
  }
}

/** The request body as undici reads it, each chunk kept by the capture on its way (streamed, never buffered). */
async function* tee(req: IncomingMessage, capture: BodyCapture): AsyncGenerator<Buffer> {
  for await (const chunk of req) {
    capture.add(chunk as Buffer);
    yield chunk as Buffer;
  }
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function forward(shared: Shared, seq: number, req: IncomingMessage, res: ServerResponse): void {
  const exchange = new Exchange(shared, seq, req, res);
  shared.pool.dispatch(
    {
      path: upstreamPath(shared.basePath, req.url ?? '/'),
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: requestHeadersToForward(req.rawHeaders, shared.via ? `${req.httpVersion} opsapi-proxy` : null),
      // undici documents AsyncIterable bodies (docs/api/Dispatcher.md, `body`); its typings only list Readable.
      body: hasBody(req) ? (tee(req, exchange.requestBody) as unknown as Readable) : null,
    },
    exchange,
  );
}

/** A 500 for an `intercept` that threw: the proxy's own bug, said plainly (no stack trace). */
function interceptFailed(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ title: 'Internal Server Error', status: 500, detail: reasonOf(error) });
  res.writeHead(500, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Starts a transparent HTTP proxy in front of `options.target`: every request is forwarded unchanged (method, path,
 * query, headers, body, streamed) but for the hop-by-hop headers and `Host`, which becomes the target's host:port
 * (see hop-by-hop.ts: our mock then answers byte for byte as it does to a direct call), and every answer
 * comes back unchanged (status, status text, headers, body bytes: never decompressed); each finished exchange goes
 * to `onExchange`. Rejects when the target is not a base URL or the port cannot be listened on.
 */
export async function startForwardingProxy(options: ForwardingProxyOptions): Promise<RunningForwarder> {
  const parsed = parseTarget(options.target);
  if (!parsed.ok) throw new Error(parsed.error);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const captureBytes = options.captureBytes ?? MIB;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new Error(`timeoutMs must be above 0, got ${timeoutMs}`);
  if (!Number.isInteger(captureBytes) || captureBytes < 0)
    throw new Error(`captureBytes must be a whole number of 0 or more, got ${captureBytes}`);
  const pool = new Pool(parsed.origin, {
    connections: MAX_CONNECTIONS,
    pipelining: 1,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs },
  });
  const shared: Shared = {
    pool,
    origin: parsed.origin,
    basePath: parsed.basePath,
    captureBytes,
    via: options.via ?? false,
    onExchange: options.onExchange,
  };
  const intercept = options.intercept;
  let seq = 0;
  const server: Server = createServer((req, res) => {
    // Nothing is added to the target's answer: no Date of the proxy's own.
    res.sendDate = false;
    if (!intercept) {
      forward(shared, ++seq, req, res);
      return;
    }
    let answered: boolean | Promise<boolean>;
    try {
      answered = intercept(req, res);
    } catch (error) {
      interceptFailed(res, error);
      return;
    }
    if (answered === true) return;
    if (answered === false) {
      forward(shared, ++seq, req, res);
      return;
    }
    answered.then(
      (yes) => {
        if (!yes) forward(shared, ++seq, req, res);
      },
      (error: unknown) => interceptFailed(res, error),
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await pool.destroy();
    throw error;
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        await closed;
        clearTimeout(cut);
        await pool.destroy();
      })();
      return closing;
    },
  };
}
