import { HTTPParser } from 'http-parser-js';

/**
 * HTTP/1.x message framing for the proxy: the `http-parser-js` library (pure JavaScript, the interface of Node's own
 * parser: `initialize`, `execute`, `finish` and the `kOn*` callback slots), fed the bytes of one connection, calling
 * back with each message's head, body pieces (de-chunked) and end. Used on both sides of the proxy's connection pairs
 * (./connection-pair.ts), so forwarding costs no `IncomingMessage`, `ServerResponse` or HTTP client per exchange, and
 * rests on no Node internals (Node offers its own parser, llhttp, only through internal modules).
 *
 * The library is lenient where Node's parser is strict, so each head is checked here before its body is framed, as
 * Node checks it (with Node's reasons): header lines are a token, a colon and a value without control characters (no
 * folding), the request target has no spaces, controls or raw non-ASCII, Content-Length is digits and said once,
 * never beside Transfer-Encoding, a request's Transfer-Encoding ends with `chunked`, and the head fits 16 KiB. A
 * message Node refuses is refused (the pair answers 400, or 502 for a target's answer) rather than forwarded as the
 * library reads it; so is, unlike in Node, a Transfer-Encoding with codings before `chunked`, which the library
 * cannot frame. Still read more leniently than Node does: lines ending in a bare LF (RFC 9112 allows it) and
 * chunk-size lines (`3 `, `0x3`); the proxy writes every message it forwards with framing of its own, so neither can
 * make the target read a message other than the one the proxy judged.
 */

/** Node's default limit on a message head (`--max-http-header-size`): the proxy accepts what a Node target accepts. */
const MAX_HEAD_BYTES = 16 * 1024;

/** A message head as parsed: flat raw header list `[name, value, ...]` (names as sent, order kept). */
export interface MessageHead {
  versionMajor: number;
  versionMinor: number;
  rawHeaders: string[];
  /** Requests: the method and request target. */
  method: string;
  target: string;
  /** Responses: the status and its text. */
  status: number;
  statusText: string;
  /** Whether the connection stays open after this message (HTTP version and Connection header). */
  keepAlive: boolean;
  /** A request asking to switch protocols (Upgrade, CONNECT). */
  upgrade: boolean;
}

interface MessageEvents {
  /** Return true (responses) when the message has no body whatever its headers say: the answer to a HEAD. */
  onHead(head: MessageHead): boolean;
  onBody(chunk: Buffer): void;
  onEnd(): void;
}

/** What the library hands `kOnHeadersComplete`. */
interface HeadInfo {
  versionMajor: number;
  versionMinor: number;
  headers: string[];
  method?: number;
  url?: string;
  statusCode?: number;
  statusMessage?: string;
  upgrade: boolean;
  shouldKeepAlive: boolean;
}

/** The part of the library's parser used here (its documented interface, with the callbacks typed as used). */
interface Parser {
  maxHeaderSize: number;
  parseHeader(line: string, headers: string[]): void;
  execute(data: Buffer): number | Error;
  finish(): undefined | Error;
  [slot: number]: unknown;
}

/** A head the proxy refuses, and why (in Node's words where Node refuses it too). */
class Malformed extends Error {}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a request target may hold: visible ASCII only. */
const NOT_TARGET = /[^\x21-\x7e]/;
const DIGITS = /^[0-9]+$/;
/** The versions Node's parser takes; HTTP/1.2 and the like are refused. */
const VERSIONS = new Set(['0.9', '1.0', '1.1', '2.0']);
/** The first byte of a message: a method's letter or `H` of `HTTP/` (empty lines before a message are allowed). */
const REQUEST_START = /^[\r\nA-Z]/;
const RESPONSE_START = /^[\r\nH]/;

/**
 * One header line (or trailer line) into `headers`, as RFC 9112 has it and Node reads it: a token, a colon, the value
 * without the blanks around it; no blank before the colon, no line folded onto the one before, no control character
 * in the value. The library calls it with the line's CRLF removed; the reasons thrown are Node's.
 */
function headerLine(line: string, headers: string[]): void {
  const colon = line.indexOf(':');
  if (colon <= 0) {
    const first = line.charCodeAt(0);
    throw new Malformed(
      first === 0x20 || first === 0x09 ? 'Unexpected whitespace after header value' : 'Invalid header token',
    );
  }
  const name = line.slice(0, colon);
  if (!TOKEN.test(name)) throw new Malformed('Invalid header token');
  let start = colon + 1;
  let end = line.length;
  while (start < end && isBlank(line.charCodeAt(start))) start++;
  while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
  const value = line.slice(start, end);
  if (NOT_FIELD_VALUE.test(value)) throw new Malformed('Invalid header value char');
  headers.push(name, value);
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** A character a field value may not hold: a control character other than horizontal tab (HTAB, SP, VCHAR, obs-text). */
const NOT_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** Whether a comma-separated header value lists this (lower-case) token. */
function hasToken(value: string, token: string): boolean {
  return value
    .toLowerCase()
    .split(',')
    .some((t) => t.trim() === token);
}

/** Parses the messages of one direction of one connection. */
export class MessageParser {
  private readonly parser: Parser;
  /** Why the bytes are not HTTP, once they were found not to be: the connection is dropped, nothing more is parsed. */
  private failure: string | null = null;
  private started = false;

  constructor(
    private readonly kind: 'request' | 'response',
    events: MessageEvents,
  ) {
    const parser = new HTTPParser(kind === 'request' ? HTTPParser.REQUEST : HTTPParser.RESPONSE) as unknown as Parser;
    // The library checks the limit only while a head is still arriving; onHeadersComplete checks a whole one.
    parser.maxHeaderSize = MAX_HEAD_BYTES;
    // The library drops a line it cannot read as a header and joins folded lines; its typings declare this method,
    // so each line is read here instead, as Node reads it.
    parser.parseHeader = headerLine;
    // Trailers of a chunked body: not forwarded (the proxy ends a chunked body it writes without trailers).
    parser[HTTPParser.kOnHeaders] = () => undefined;
    parser[HTTPParser.kOnHeadersComplete] = (...args: unknown[]): number => {
      const head = this.head(headInfo(args));
      const bodiless = kind === 'response' && (head.status < 200 || head.status === 204 || head.status === 304);
      // 1: no body follows. Answers with a status that has none are framed that way whatever their Content-Length
      // says (the library would wait for the bytes), as is the answer to a HEAD (the pair knows which is one).
      return events.onHead(head) || bodiless ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk: Buffer, offset: number, length: number) =>
      events.onBody(offset === 0 && length === chunk.length ? chunk : chunk.subarray(offset, offset + length));
    parser[HTTPParser.kOnMessageComplete] = () => events.onEnd();
    this.parser = parser;
  }

  /** Feeds bytes; returns why they are not HTTP, or null. */
  push(data: Buffer): string | null {
    if (this.failure !== null) return this.failure;
    if (!this.started && data.length > 0) {
      this.started = true;
      // The library waits for a line's end before it judges the line: bytes that cannot start a message (a TLS
      // handshake sent to plain HTTP, a target that speaks something else) are refused at once, as Node does.
      if (!(this.kind === 'request' ? REQUEST_START : RESPONSE_START).test(data.toString('latin1', 0, 1)))
        return this.fail(this.kind === 'request' ? 'Invalid method encountered' : 'Expected HTTP/');
    }
    let result: number | Error;
    try {
      result = latin1(() => this.parser.execute(data));
    } catch (error) {
      if (error instanceof Malformed) return this.fail(error.message);
      throw error;
    }
    return typeof result === 'number' ? null : this.fail(describe(result));
  }

  /** The connection ended: completes a message delimited by the close, or says why the end came too early. */
  end(): string | null {
    if (this.failure !== null) return this.failure;
    const result = latin1(() => this.parser.finish());
    return result === undefined ? null : 'the connection ended in the middle of a message';
  }

  private fail(reason: string): string {
    this.failure = reason;
    return reason;
  }

  /** The head as the pair reads it; throws Malformed where Node's parser refuses it. */
  private head(info: HeadInfo): MessageHead {
    const request = this.kind === 'request';
    const version = `${info.versionMajor}.${info.versionMinor}`;
    if (!VERSIONS.has(version)) throw new Malformed('Invalid HTTP version');
    const target = info.url ?? '';
    if (request && NOT_TARGET.test(target)) throw new Malformed('Invalid char in url path');
    const headers = info.headers;
    let size = target.length + 16;
    let contentLength = false;
    let codings: string[] | null = null;
    let lastTransferEncoding = '';
    let connection = '';
    for (let i = 0; i < headers.length; i += 2) {
      const name = headers[i] as string;
      const value = headers[i + 1] as string;
      size += name.length + value.length + 4;
      switch (name.toLowerCase()) {
        case 'content-length':
          if (contentLength) throw new Malformed('Duplicate Content-Length');
          if (!DIGITS.test(value)) throw new Malformed('Invalid character in Content-Length');
          if (!Number.isSafeInteger(Number(value))) throw new Malformed('Content-Length overflow');
          contentLength = true;
          break;
        case 'transfer-encoding':
          codings = [
            ...(codings ?? []),
            ...value
              .toLowerCase()
              .split(',')
              .map((c) => c.trim()),
          ];
          lastTransferEncoding = value;
          break;
        case 'connection':
          connection += `${value},`;
          break;
      }
    }
    if (size > MAX_HEAD_BYTES) throw new Malformed('Header overflow');
    let chunked = false;
    if (codings !== null) {
      if (contentLength) throw new Malformed("Content-Length can't be present with Transfer-Encoding");
      const at = codings.indexOf('chunked');
      if (at !== -1 && at !== codings.length - 1) throw new Malformed('Invalid `Transfer-Encoding` header value');
      chunked = at !== -1;
      if (request && !chunked) throw new Malformed('Request has invalid `Transfer-Encoding`');
      // The library frames a body as chunked only when the last Transfer-Encoding line says just that.
      if (chunked && lastTransferEncoding.trim().toLowerCase() !== 'chunked')
        throw new Malformed('Transfer-Encoding with codings before chunked (not supported by the proxy)');
    }
    const status = info.statusCode ?? 0;
    // As Node's parser decides it: HTTP/1.1 stays open unless told to close, HTTP/1.0 only when told to keep alive;
    // an answer whose body ends with the connection closes it.
    const persistent =
      info.versionMajor > 0 && info.versionMinor > 0
        ? !hasToken(connection, 'close')
        : hasToken(connection, 'keep-alive');
    const untilClose = !request && !chunked && !contentLength && !(status < 200 || status === 204 || status === 304);
    return {
      versionMajor: info.versionMajor,
      versionMinor: info.versionMinor,
      rawHeaders: headers,
      method: info.method === undefined ? '' : (HTTPParser.methods[info.method] ?? ''),
      target,
      status,
      statusText: info.statusMessage ?? '',
      keepAlive: persistent && !untilClose,
      upgrade: info.upgrade,
    };
  }
}

/**
 * The head callback's arguments as one record: the library passes one (its default) or, once any code in the process
 * has read `HTTPParser.kOnExecute` (as when it stands in for Node's parser), Node's nine positional arguments.
 */
function headInfo(args: unknown[]): HeadInfo {
  if (typeof args[0] === 'object' && args[0] !== null) return args[0] as HeadInfo;
  const [versionMajor, versionMinor, headers, method, url, statusCode, statusMessage, upgrade, shouldKeepAlive] =
    args as [number, number, string[], number, string, number, string, boolean, boolean];
  return { versionMajor, versionMinor, headers, method, url, statusCode, statusMessage, upgrade, shouldKeepAlive };
}

/**
 * Runs `parse` with the library decoding heads as latin1: its default, ascii, clears each byte's top bit, and a
 * header value must go out as it came in (the pair writes heads as latin1, ./wire.ts). Set only around the call,
 * since the setting is the library's, shared with any other code that uses it.
 */
function latin1<T>(parse: () => T): T {
  const encoding = HTTPParser.encoding;
  HTTPParser.encoding = 'latin1';
  try {
    return parse();
  } finally {
    HTTPParser.encoding = encoding;
  }
}

function describe(error: Error & { code?: string }): string {
  return `${error.message}${error.code ? ` (${error.code})` : ''}`;
}
