import { createRequire } from 'node:module';

/**
 * HTTP/1.x message framing for the proxy: Node's own parser (llhttp, the one `node:http` runs), fed the bytes of one
 * connection, calling back with each message's head, body pieces (de-chunked) and end. Used on both sides of the
 * proxy's connection pairs (./connection-pair.ts), so forwarding costs no `IncomingMessage`, `ServerResponse` or HTTP
 * client per exchange. Node exposes the parser through its `_http_common` module (no deprecation warning, unlike
 * `process.binding('http_parser')`); the constants and callback slots below are the ones `node:http` itself uses.
 */
interface NodeParser {
  initialize(type: number, resource: object, maxHeaderSize?: number, lenient?: number): void;
  execute(data: Buffer): number | ParserError;
  finish(): undefined | ParserError;
  free(): void;
  [slot: number]: unknown;
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
  bytesParsed?: number;
}

interface ParserClass {
  new (): NodeParser;
  REQUEST: number;
  RESPONSE: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
}

const { HTTPParser, methods } = createRequire(import.meta.url)('_http_common') as {
  HTTPParser: ParserClass;
  methods: string[];
};

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

export interface MessageEvents {
  /** Return true (responses) when the message has no body whatever its headers say: the answer to a HEAD. */
  onHead(head: MessageHead): boolean;
  onBody(chunk: Buffer): void;
  onEnd(): void;
}

/** Parses the messages of one direction of one connection. */
export class MessageParser {
  private readonly parser: NodeParser;
  private pendingHeaders: string[] = [];
  private pendingTarget = '';

  constructor(kind: 'request' | 'response', events: MessageEvents) {
    const parser = new HTTPParser();
    parser.initialize(kind === 'request' ? HTTPParser.REQUEST : HTTPParser.RESPONSE, {});
    // More than 32 header lines arrive in parts before the head completes.
    parser[HTTPParser.kOnHeaders] = (headers: string[], target: string) => {
      this.pendingHeaders.push(...headers);
      this.pendingTarget += target;
    };
    parser[HTTPParser.kOnHeadersComplete] = (
      versionMajor: number,
      versionMinor: number,
      headers: string[] | undefined,
      method: number | undefined,
      target: string | undefined,
      status: number | undefined,
      statusText: string | undefined,
      upgrade: boolean,
      keepAlive: boolean,
    ): number => {
      // Header lines handed over early (kOnHeaders) come first; `headers` is absent when all were.
      const rawHeaders =
        this.pendingHeaders.length === 0 ? (headers ?? []) : [...this.pendingHeaders, ...(headers ?? [])];
      const head: MessageHead = {
        versionMajor,
        versionMinor,
        rawHeaders,
        method: method === undefined ? '' : (methods[method] ?? ''),
        target: target ?? this.pendingTarget,
        status: status ?? 0,
        statusText: statusText ?? '',
        keepAlive,
        upgrade,
      };
      this.pendingHeaders = [];
      this.pendingTarget = '';
      // 1: the parser skips the body (node:http answers a HEAD this way).
      return events.onHead(head) ? 1 : 0;
    };
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => events.onBody(chunk);
    parser[HTTPParser.kOnMessageComplete] = () => events.onEnd();
    this.parser = parser;
  }

  /** Feeds bytes; returns why they are not HTTP, or null. */
  push(data: Buffer): string | null {
    const result = this.parser.execute(data);
    return typeof result === 'number' ? null : describe(result);
  }

  /** The connection ended: completes a message delimited by the close, or says why the end came too early. */
  end(): string | null {
    const result = this.parser.finish();
    return result === undefined ? null : describe(result);
  }

  free(): void {
    this.parser.free();
  }
}

function describe(error: ParserError): string {
  return `${error.reason ?? error.message}${error.code ? ` (${error.code})` : ''}`;
}
