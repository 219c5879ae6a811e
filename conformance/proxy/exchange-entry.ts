import { BodyCapture, type CapturedExchange, pairsOf } from './exchange.js';
import type { MessageHead } from './message-parser.js';

/** One request on a client connection and its answer, as the proxy tracks it until it reports it. */
export class ExchangeEntry {
  readonly startedAt = Date.now();
  private readonly t0 = performance.now();
  readonly method: string;
  readonly target: string;
  readonly httpVersion: string;
  /** Whether the client's connection stays open after this answer (its HTTP version and Connection header). */
  keepAlive: boolean;
  /** Whether the target keeps its connection open after this answer. */
  targetKeepsAlive = true;
  readonly requestHeaders: [string, string][];
  readonly requestBody: BodyCapture;
  readonly responseBody: BodyCapture;
  status = 0;
  statusText = '';
  responseHeaders: [string, string][] = [];
  error: string | undefined;
  /** Answered by the proxy itself (intercepted): never forwarded, never reported. */
  local = false;
  /** The request's body arrives chunked (and goes on chunked). */
  chunkedRequest = false;
  /** The answer's body goes to the client chunked (its length was not given). */
  chunkedResponse = false;
  /** A 1xx interim answer is being skipped. */
  interim = false;
  /** Bytes of the answer held until the answers before it have gone out (null: none held). */
  held: (string | Buffer)[] | null = null;
  /** The answer's head has been produced (written or held). */
  headProduced = false;
  /** The whole answer has been produced. */
  done = false;
  private reported = false;

  constructor(
    readonly seq: number,
    request: MessageHead,
    captureBytes: number,
  ) {
    this.method = request.method;
    this.target = request.target;
    this.httpVersion = `${request.versionMajor}.${request.versionMinor}`;
    this.keepAlive = request.keepAlive;
    this.requestHeaders = pairsOf(request.rawHeaders);
    this.requestBody = new BodyCapture(captureBytes);
    this.responseBody = new BodyCapture(captureBytes);
  }

  /** The exchange as reported, once (later calls answer null). */
  capture(): CapturedExchange | null {
    if (this.reported || this.local) return null;
    this.reported = true;
    const exchange: CapturedExchange = {
      seq: this.seq,
      startedAt: this.startedAt,
      durationMs: performance.now() - this.t0,
      method: this.method,
      target: this.target,
      httpVersion: this.httpVersion,
      requestHeaders: this.requestHeaders,
      requestBody: this.requestBody.bytes(),
      requestBodySize: this.requestBody.size,
      status: this.status,
      statusText: this.statusText,
      responseHeaders: this.responseHeaders,
      responseBody: this.responseBody.bytes(),
      responseBodySize: this.responseBody.size,
    };
    if (this.error !== undefined) exchange.error = this.error;
    return exchange;
  }
}
