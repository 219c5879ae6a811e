import type { Dispatcher } from 'undici';
import type { AttemptOutcome } from './transport.js';

/**
 * Characters of a response body kept in an attempt record.
 */
const EXCERPT_CHARS = 1024;

/**
 * Bytes read from a response body at most: enough for `EXCERPT_CHARS` characters of UTF-8 (4 bytes each at
 * worst). The rest is never read: the connection is closed instead, so a huge or endless body costs nothing.
 */
const MAX_READ_BYTES = 8 * 1024;

/** What an attempt ended with: the error kind (null: a 2xx), the status and excerpt when an answer came. */
type Settle = (errorKind: AttemptOutcome['errorKind'], responseStatus: number | null, excerpt: string | null) => void;

/** Why the deadline aborts a request (told apart from other errors by identity). */
const DEADLINE = new Error('the delivery attempt timed out');

/**
 * Reads one webhook answer straight from undici's dispatcher: the status and at most `MAX_READ_BYTES` of the body,
 * nothing else (no response stream, no header object kept). It settles once: on the end of the answer, on an error,
 * on the read limit (the connection is then aborted, the rest never read), or at the attempt's deadline (`expire`),
 * which settles at once even while the connection is still being made, and aborts the request as soon as undici
 * lets it. Why not `undici.request()`: its promise, body stream and abort signal were ~30% of the mock's CPU per
 * delivery (measured with --cpu-prof under the bench's webhooks scenario).
 */
export class ExcerptHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;
  private expired = false;

  constructor(
    private readonly settle: Settle,
    private readonly classify: (error: unknown) => AttemptOutcome['errorKind'],
  ) {}

  /** The deadline passed: a `Timeout`, with the status if the answer had begun. */
  expire(): void {
    this.expired = true;
    this.finish('Timeout', this.status, null);
    this.controller?.abort(DEADLINE);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.expired) controller.abort(DEADLINE);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // 1xx answers are interim: the final status follows.
    if (statusCode >= 200) this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= MAX_READ_BYTES) {
      this.finish(this.statusKind(), this.status, this.excerpt());
      controller.abort(new Error('webhook answer longer than the excerpt: not read further'));
    }
  }

  onResponseEnd(): void {
    this.finish(this.statusKind(), this.status, this.excerpt());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    // The status line may have come before the answer broke off: the attempt failed, the status is kept.
    this.finish(error === DEADLINE ? 'Timeout' : this.classify(error), this.status, null);
  }

  private statusKind(): AttemptOutcome['errorKind'] {
    const status = this.status ?? 0;
    return status >= 200 && status < 300 ? null : 'HttpStatus';
  }

  private excerpt(): string {
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    return excerptOf(bytes.subarray(0, MAX_READ_BYTES));
  }

  private finish(errorKind: AttemptOutcome['errorKind'], status: number | null, excerpt: string | null): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(errorKind, status, excerpt);
  }
}

const decoder = new TextDecoder('utf-8');

/** The first `EXCERPT_CHARS` characters of UTF-8 bytes, never ending in half a surrogate pair. */
function excerptOf(bytes: Uint8Array): string {
  const text = decoder.decode(bytes);
  if (text.length <= EXCERPT_CHARS) return text;
  const last = text.charCodeAt(EXCERPT_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? EXCERPT_CHARS - 1 : EXCERPT_CHARS);
}
