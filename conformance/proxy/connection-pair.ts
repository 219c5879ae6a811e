import type { Socket } from 'node:net';
import { badGatewayBody, reasonOf } from './bad-gateway.js';
import type { CapturedExchange } from './exchange.js';
import { ExchangeEntry } from './exchange-entry.js';
import { requestHeadersToForward, responseHeadersOf } from './hop-by-hop.js';
import { answerBytes, askInterceptor, type InterceptedAnswer, type Interceptor } from './intercept.js';
import { type MessageHead, MessageParser } from './message-parser.js';
import { CHUNK_END, CONTINUE, LAST_CHUNK, chunkStart, hasHeader, head, isChunked } from './wire.js';

/** What every connection pair of one proxy shares. */
export interface PairSettings {
  /** Opens a connection to the target. */
  connect(): Socket;
  /** The target's host[:port], sent as Host. */
  readonly hostHeader: string;
  readonly origin: string;
  readonly basePath: string;
  readonly captureBytes: number;
  readonly via: boolean;
  readonly timeoutMs: number;
  readonly intercept: Interceptor | undefined;
  nextSeq(): number;
  report(exchange: CapturedExchange): void;
  /** Set when the proxy closes: a pair with nothing under way ends. */
  closing: boolean;
}

/** How long a client connection may sit idle between requests (node:http's keepAliveTimeout default). */
const KEEP_ALIVE_MS = 5000;
const KEEP_ALIVE_HINT = `Keep-Alive: timeout=${KEEP_ALIVE_MS / 1000}`;

/** The path to ask the target for: its base path, then the path and query as received (origin-form). */
function upstreamPath(basePath: string, target: string): string {
  // An absolute-form target (`GET http://host/path`, as sent to a forward proxy) keeps only its path and query.
  const path = target.charCodeAt(0) === 47 ? target : target.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '') || '/';
  return basePath + path;
}

/**
 * One client connection and the target connection paired with it. Requests are parsed as they arrive and written to
 * the target with their head rebuilt (Host of the target, hop-by-hop headers dropped, base path prefixed) and their
 * body bytes as received; answers are parsed as they arrive and written to the client with their head rebuilt
 * (hop-by-hop headers dropped) and their body bytes unchanged (never decoded), in the order of the requests. Each
 * finished exchange is reported. A target connection is opened on the first request and again after the target
 * closed one; a request the target does not answer (refused, reset, silent for `timeoutMs`) gets a 502 problem, and
 * an answer cut short cuts the client's connection (it must not take a partial body as whole).
 */
export class ConnectionPair {
  /** Exchanges in the order of the requests: answers go out in this order. */
  private readonly entries: ExchangeEntry[] = [];
  /** Forwarded exchanges whose answer has not ended, in the order the target answers them. */
  private readonly awaiting: ExchangeEntry[] = [];
  private readonly requests: MessageParser;
  private upstream: Socket | null = null;
  /** The request whose body is arriving. */
  private receiving: ExchangeEntry | null = null;
  private corked = false;
  private closed = false;

  constructor(
    private readonly client: Socket,
    private readonly settings: PairSettings,
  ) {
    client.setNoDelay(true);
    client.setTimeout(KEEP_ALIVE_MS, () => {
      if (this.entries.length === 0) client.destroy();
    });
    this.requests = new MessageParser('request', {
      onHead: (h) => this.onRequestHead(h),
      onBody: (chunk) => this.onRequestBody(chunk),
      onEnd: () => this.onRequestEnd(),
    });
    client.on('data', (data: Buffer) => {
      const error = this.requests.push(data);
      if (error !== null) this.badRequest();
    });
    client.on('drain', () => this.upstream?.resume());
    client.on('error', () => undefined);
    client.on('close', () => this.onClientClose());
  }

  /** Ends the client's connection if nothing is under way on it (the proxy is closing). */
  endIfIdle(): void {
    if (this.entries.length === 0) this.client.destroy();
  }

  destroy(): void {
    this.client.destroy();
  }

  private badRequest(): void {
    // As node:http answers bytes that are not HTTP: 400 and close, nothing forwarded or reported.
    if (this.entries.length === 0 && !this.client.destroyed)
      this.client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else this.client.destroy();
  }

  private onRequestHead(h: MessageHead): boolean {
    if (h.upgrade) {
      // Protocol upgrades are not forwarded (as node:http without an upgrade listener): the connection is closed.
      this.client.destroy();
      return false;
    }
    const entry = new ExchangeEntry(this.settings.nextSeq(), h, this.settings.captureBytes);
    this.entries.push(entry);
    this.receiving = entry;
    this.client.setTimeout(0);
    const intercept = this.settings.intercept;
    if (intercept && h.target.startsWith(intercept.prefix)) {
      entry.local = true;
      this.answerLocally(entry, intercept);
      return false;
    }
    if (this.entries.length === 1 && hasHeader(h.rawHeaders, 'expect')) this.client.write(CONTINUE);
    this.forward(entry, h);
    return false;
  }

  private forward(entry: ExchangeEntry, h: MessageHead): void {
    const upstream = this.connection();
    this.awaiting.push(entry);
    entry.chunkedRequest = isChunked(h.rawHeaders);
    const { settings } = this;
    const headers = requestHeadersToForward(h.rawHeaders, settings.via ? `${entry.httpVersion} opsapi-proxy` : null);
    const text = head(
      `${h.method} ${upstreamPath(settings.basePath, h.target)} HTTP/1.1`,
      ['Host', settings.hostHeader, ...headers],
      entry.chunkedRequest ? ['Transfer-Encoding: chunked'] : [],
    );
    upstream.write(text);
    upstream.setTimeout(settings.timeoutMs);
  }

  private onRequestBody(chunk: Buffer): void {
    const entry = this.receiving;
    if (!entry) return;
    entry.requestBody.add(chunk);
    const upstream = this.upstream;
    if (entry.local || entry.done || !upstream || !this.awaiting.includes(entry)) return;
    if (entry.chunkedRequest) upstream.write(chunkStart(chunk.length));
    const more = upstream.write(chunk);
    if (entry.chunkedRequest) upstream.write(CHUNK_END);
    // Back-pressure: the client waits until the target has taken what was written (its 'drain' resumes the client).
    if (!more) this.client.pause();
  }

  private onRequestEnd(): void {
    const entry = this.receiving;
    this.receiving = null;
    if (entry?.chunkedRequest && !entry.local && !entry.done && this.awaiting.includes(entry))
      this.upstream?.write(LAST_CHUNK);
  }

  /** The connection to the target, opened when there is none. */
  private connection(): Socket {
    if (this.upstream) return this.upstream;
    const upstream = this.settings.connect();
    upstream.setNoDelay(true);
    const answers = new MessageParser('response', {
      onHead: (h) => this.onAnswerHead(upstream, h),
      onBody: (chunk) => this.onAnswerBody(upstream, chunk),
      onEnd: () => this.onAnswerEnd(upstream),
    });
    upstream.on('data', (data: Buffer) => {
      const error = answers.push(data);
      if (error !== null) this.upstreamFailed(upstream, `the target's answer is not HTTP: ${error}`);
      this.uncork();
    });
    upstream.on('end', () => {
      // A body delimited by the end of the connection ends here; any other answer under way was cut short.
      if (this.upstream === upstream) this.upstream = null;
      const error = answers.end();
      this.uncork();
      if (this.awaitingOn(upstream))
        this.upstreamFailed(upstream, error ?? 'the target closed the connection before answering');
    });
    upstream.on('timeout', () =>
      this.upstreamFailed(upstream, `the target did not answer within ${this.settings.timeoutMs} ms (timeout)`),
    );
    upstream.on('error', (error) => this.upstreamFailed(upstream, reasonOf(error)));
    upstream.on('close', () => {
      if (this.upstream === upstream) this.upstream = null;
      if (this.awaitingOn(upstream)) this.upstreamFailed(upstream, 'the target closed the connection');
    });
    upstream.on('drain', () => this.client.resume());
    this.upstream = upstream;
    return upstream;
  }

  /** Whether exchanges wait on this target connection (all waiting ones do while it is the current one). */
  private awaitingOn(upstream: Socket): boolean {
    return this.awaiting.length > 0 && (this.upstream === upstream || this.upstream === null);
  }

  private onAnswerHead(upstream: Socket, h: MessageHead): boolean {
    const entry = this.awaiting[0];
    if (!entry || upstream.destroyed) {
      this.upstreamFailed(upstream, 'the target answered a request it was not sent');
      return false;
    }
    if (h.status < 200) {
      // 1xx interim answers are the target's business (the proxy answered Expect itself).
      entry.interim = true;
      return false;
    }
    const { all, forwarded } = responseHeadersOf(h.rawHeaders);
    entry.status = h.status;
    entry.statusText = h.statusText;
    entry.targetKeepsAlive = h.keepAlive;
    entry.responseHeaders = all;
    const bodiless = entry.method === 'HEAD' || h.status === 204 || h.status === 304;
    const sized = hasHeader(forwarded, 'content-length');
    // A body of unknown length goes to an HTTP/1.1 client chunked; to an HTTP/1.0 one, delimited by closing.
    entry.chunkedResponse = !bodiless && !sized && entry.httpVersion !== '1.0';
    const closeAfter = !entry.keepAlive || (!bodiless && !sized && !entry.chunkedResponse);
    const extra: string[] = [];
    if (entry.chunkedResponse) extra.push('Transfer-Encoding: chunked');
    if (closeAfter) extra.push('Connection: close');
    // As node:http says it: the client learns how long an idle connection stays open, and closes it first.
    else extra.push('Connection: keep-alive', KEEP_ALIVE_HINT);
    if (closeAfter) entry.keepAlive = false;
    entry.headProduced = true;
    this.emit(entry, head(`HTTP/1.1 ${h.status} ${h.statusText}`, forwarded, extra));
    return entry.method === 'HEAD';
  }

  private onAnswerBody(upstream: Socket, chunk: Buffer): void {
    const entry = this.awaiting[0];
    if (!entry || upstream.destroyed || entry.interim) return;
    entry.responseBody.add(chunk);
    if (entry.chunkedResponse) this.emit(entry, chunkStart(chunk.length));
    this.emit(entry, chunk);
    if (entry.chunkedResponse) this.emit(entry, CHUNK_END);
  }

  private onAnswerEnd(upstream: Socket): void {
    const entry = this.awaiting[0];
    if (!entry || upstream.destroyed) return;
    if (entry.interim) {
      entry.interim = false;
      return;
    }
    if (entry.chunkedResponse) this.emit(entry, LAST_CHUNK);
    this.awaiting.shift();
    if (this.awaiting.length === 0) upstream.setTimeout(0);
    // The target closes this connection after the answer: the next request opens another.
    if (!entry.targetKeepsAlive && this.upstream === upstream) this.upstream = null;
    this.finish(entry);
  }

  /** The target connection failed: every exchange waiting on it gets a 502, or its cut-short answer a cut. */
  private upstreamFailed(upstream: Socket, reason: string): void {
    if (this.upstream === upstream) this.upstream = null;
    upstream.destroy();
    for (const entry of this.awaiting.splice(0)) {
      entry.error = reason;
      if (entry.headProduced) {
        this.report(entry);
        this.client.destroy();
        continue;
      }
      const body = badGatewayBody(entry.method, entry.target, this.settings.origin, reason);
      const close = !entry.keepAlive;
      entry.headProduced = true;
      this.emit(
        entry,
        head(
          'HTTP/1.1 502 Bad Gateway',
          ['Content-Type', 'application/problem+json', 'Content-Length', String(body.length)],
          close ? ['Connection: close'] : [],
        ),
      );
      this.emit(entry, body);
      this.finish(entry);
    }
    this.uncork();
  }

  private answerLocally(entry: ExchangeEntry, intercept: Interceptor): void {
    const write = (answer: InterceptedAnswer) => {
      if (this.closed) return;
      entry.headProduced = true;
      for (const bytes of answerBytes(answer, entry.keepAlive)) this.emit(entry, bytes);
      this.finish(entry);
      this.uncork();
    };
    const answer = askInterceptor(intercept, entry);
    if (answer instanceof Promise) answer.then(write);
    else write(answer);
  }

  /** Writes bytes of an answer, or holds them while answers to earlier requests are still going out. */
  private emit(entry: ExchangeEntry, data: string | Buffer): void {
    if (this.entries[0] !== entry) {
      entry.held ??= [];
      entry.held.push(data);
      return;
    }
    this.write(data);
  }

  private write(data: string | Buffer): void {
    if (this.client.destroyed) return;
    if (!this.corked) {
      // Everything written until the current event ends goes out in one write (a syscall per answer).
      this.client.cork();
      this.corked = true;
    }
    const more = typeof data === 'string' ? this.client.write(data, 'latin1') : this.client.write(data);
    // Back-pressure: the target's answer waits until the client has taken what was written.
    if (!more) this.upstream?.pause();
  }

  private uncork(): void {
    if (!this.corked) return;
    this.corked = false;
    this.client.uncork();
  }

  /** An answer was produced in full: report it, then let the answers held behind it go out. */
  private finish(entry: ExchangeEntry): void {
    entry.done = true;
    this.report(entry);
    while (this.entries[0]?.done) {
      const first = this.entries.shift() as ExchangeEntry;
      if (!first.keepAlive) {
        this.uncork();
        this.client.end();
        return;
      }
      const next = this.entries[0];
      if (next?.held) {
        for (const data of next.held) this.write(data);
        next.held = null;
      }
    }
    if (this.entries.length === 0) {
      if (this.settings.closing) {
        this.uncork();
        this.client.end();
      } else this.client.setTimeout(KEEP_ALIVE_MS);
    }
  }

  private report(entry: ExchangeEntry): void {
    const exchange = entry.capture();
    if (exchange) this.settings.report(exchange);
  }

  /** The client left: exchanges under way are reported as cut short, and their target connection is closed. */
  private onClientClose(): void {
    this.closed = true;
    for (const entry of this.entries.splice(0)) {
      if (entry.done) continue;
      entry.error ??= 'the client closed the connection before the answer was complete';
      this.report(entry);
    }
    this.awaiting.length = 0;
    this.upstream?.destroy();
    this.upstream = null;
  }
}
