import { isUtf8 } from 'node:buffer';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Content, Creator, Entry, Header, Log, PostData } from 'har-format';
import { headerValue, type CapturedExchange } from './exchange.js';
import { redactBodyText, redactHeaders, redactQuery } from './redaction.js';

/** An entry as recorded: HAR 1.2, plus Chrome's `_error` on a response that did not (fully) come. */
type RecordedEntry = Entry & { response: Entry['response'] & { _error?: string } };

interface HarRecorderOptions {
  creator: Creator;
  /**
   * The address the requests went to (the proxy's target, base path included): entries' URLs are this plus the
   * path and query as received. Default: `http://<Host the client sent>`.
   */
  baseUrl?: string;
}

/** A body as HAR keeps it: text when UTF-8, else base64, with a comment when only its first bytes were captured. */
function bodyOf(
  body: Buffer,
  size: number,
  encoded: string | undefined,
  known: readonly string[],
): { text?: string; encoding?: string; comment?: string } {
  if (body.length === 0) return {};
  const cut = body.length < size;
  const notes: string[] = [];
  if (cut) notes.push(`the first ${body.length} of ${size} bytes`);
  if (encoded) notes.push(`as sent (Content-Encoding: ${encoded}), not decoded`);
  const comment = notes.length ? { comment: notes.join('; ') } : {};
  // A cut may split a character: the up to 3 bytes of an incomplete last character are left out of the text.
  for (let drop = 0; drop <= (cut ? 3 : 0) && drop < body.length; drop++) {
    const part = drop === 0 ? body : body.subarray(0, body.length - drop);
    if (isUtf8(part)) return { text: redactBodyText(part.toString('utf8'), known), ...comment };
  }
  return { text: body.toString('base64'), encoding: 'base64', ...comment };
}

const harHeaders = (headers: readonly [string, string][]): Header[] =>
  redactHeaders(headers).map(([name, value]) => ({ name, value }));

/** Milliseconds with microsecond precision (HAR times are numbers of ms). */
const ms = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * One exchange as a HAR 1.2 entry, credentials redacted (redaction.ts). Sizes are of the bytes as sent: a compressed
 * body is kept compressed (base64) and `content.size` counts its bytes, as the proxy never decodes. The proxy measures
 * only the whole exchange, so `timings.wait` carries it (`send` and `receive` 0).
 */
function harEntry(x: CapturedExchange, baseUrl?: string): RecordedEntry {
  const { target, query } = redactQuery(x.target);
  const base = (baseUrl ?? `http://${headerValue(x.requestHeaders, 'host') ?? 'localhost'}`).replace(/\/+$/, '');
  const requestType = headerValue(x.requestHeaders, 'content-type');
  const reached = x.status !== 0;
  const responseType = headerValue(x.responseHeaders, 'content-type');
  const location = headerValue(x.responseHeaders, 'location');
  // The secrets this exchange sends in its credential headers are redacted from its bodies too.
  const known = [
    headerValue(x.requestHeaders, 'authorization')?.replace(/^\S+\s+/, ''),
    headerValue(x.requestHeaders, 'x-api-key'),
  ].filter((v): v is string => v !== undefined);
  const requestBody = bodyOf(
    x.requestBody,
    x.requestBodySize,
    headerValue(x.requestHeaders, 'content-encoding'),
    known,
  );
  const content: Content = {
    size: x.responseBodySize,
    mimeType: responseType ?? 'x-unknown',
    ...bodyOf(x.responseBody, x.responseBodySize, headerValue(x.responseHeaders, 'content-encoding'), known),
  };
  const entry: RecordedEntry = {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time: ms(x.durationMs),
    request: {
      method: x.method,
      url: base + target,
      httpVersion: `HTTP/${x.httpVersion}`,
      cookies: [],
      headers: harHeaders(x.requestHeaders),
      queryString: query,
      headersSize: -1,
      bodySize: x.requestBodySize,
    },
    response: {
      status: x.status,
      statusText: x.statusText,
      httpVersion: reached ? 'HTTP/1.1' : '',
      cookies: [],
      headers: harHeaders(x.responseHeaders),
      content,
      redirectURL: location === undefined ? '' : redactQuery(location).target,
      headersSize: -1,
      bodySize: reached ? x.responseBodySize : -1,
    },
    cache: {},
    timings: { send: 0, wait: ms(x.durationMs), receive: 0 },
  };
  if (x.requestBodySize > 0) {
    // HAR 1.2 has no `encoding` on postData; it is added for binary bodies as on `content` (HAR 1.3 draft).
    const postData: PostData & { encoding?: string } = {
      mimeType: requestType ?? 'x-unknown',
      text: requestBody.text ?? '',
      ...(requestBody.encoding ? { encoding: requestBody.encoding } : {}),
      ...(requestBody.comment ? { comment: requestBody.comment } : {}),
    };
    entry.request.postData = postData;
  }
  if (x.error !== undefined) entry.response._error = x.error;
  return entry;
}

/**
 * A HAR 1.2 file written as the traffic goes: the head on `open`, one entry per `add`, the tail on `close`, so memory
 * stays flat however long the run (entries wait in memory only while the disk lags behind). The file is valid JSON
 * once closed, with 0 entries too.
 */
export class HarRecorder {
  private count = 0;
  private failure: Error | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly stream: WriteStream,
    private readonly baseUrl: string | undefined,
  ) {
    stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  /** Creates (or truncates) `file` and writes the head; rejects when the file cannot be written. */
  static async open(file: string, options: HarRecorderOptions): Promise<HarRecorder> {
    const stream = createWriteStream(file);
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.once('open', () => {
        stream.off('error', reject);
        resolve();
      });
    });
    const log: Log = { version: '1.2', creator: options.creator, pages: [], entries: [] };
    const json = JSON.stringify({ log });
    // `{"log":{..."entries":[]}}` without its last `]}}`: the entries follow.
    stream.write(json.slice(0, -3));
    return new HarRecorder(stream, options.baseUrl);
  }

  /** Entries added so far. */
  get entries(): number {
    return this.count;
  }

  /** Appends one exchange (ignored after `close` or a write failure, which `close` reports). */
  add(exchange: CapturedExchange): void {
    if (this.closing || this.failure) return;
    const entry = JSON.stringify(harEntry(exchange, this.baseUrl));
    this.stream.write(this.count === 0 ? `\n${entry}` : `,\n${entry}`);
    this.count++;
  }

  /** Writes the tail; resolves once everything is on disk, rejects with the first write failure. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      const done = () => (this.failure ? reject(this.failure) : resolve());
      if (this.stream.destroyed) return done();
      this.stream.once('error', reject);
      this.stream.end(`${this.count === 0 ? '' : '\n'}]}}\n`, done);
    });
    return this.closing;
  }
}
