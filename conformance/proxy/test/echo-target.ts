import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

/** What the target received, as it received it. */
export interface Received {
  method: string;
  url: string;
  httpVersion: string;
  rawHeaders: string[];
  body: Buffer;
}

/** A loopback server standing for the real deployment behind the proxy. */
export interface EchoTarget {
  url: string;
  host: string;
  /** Every request received, in order. */
  received: Received[];
  /** Answers whose connection closed before they were complete (`/answer/hang`: the proxy aborted them). */
  readonly cutShort: number;
  close(): Promise<void>;
}

export const LARGE_BODY = Buffer.alloc(3 * 1024 * 1024, 'abcdefghijklmnopqrstuvwxyz0123456789');
export const GZIPPED_JSON = gzipSync(Buffer.from(JSON.stringify({ results: [{ id: 1, name: 'caf\u00e9' }] })));
/** Bytes that are not UTF-8. */
export const BINARY_BODY = Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81, 0x7f]);
/** How long `/answer/slow` waits between its halves. */
const SLOW_GAP_MS = 150;

/**
 * The answers the target can give, chosen by path:
 * - `/answer/json`: 201 with a custom status text, mixed-case and repeated headers, and hop-by-hop ones that must not
 *   reach the client (`Connection: X-Hop-Note`, `X-Hop-Note`, `Keep-Alive`, `Proxy-Authenticate`);
 * - `/answer/gzip`: a gzip-encoded JSON body (`Content-Encoding: gzip`, content-length kept);
 * - `/answer/chunked`: a body in three chunks without content-length;
 * - `/answer/204`, `/answer/medium` (40 KB, sized, written in pieces), `/answer/large` (3 MB), `/answer/binary`;
 * - `/answer/slow`: half a body, a pause, the rest; `/answer/hang`: headers, then nothing until the client leaves;
 * - `/answer/silent`: never answers at all.
 * Anything else: 200 with a JSON echo of what was received (method, raw url, raw headers, body as base64).
 */
function answer(req: IncomingMessage, res: ServerResponse, received: Received, onCut: () => void): void {
  const path = (req.url ?? '/').split('?')[0];
  switch (path) {
    case '/answer/json': {
      const body = Buffer.from('{"ok":true,"note":"caf\u00e9"}');
      res.writeHead(201, 'Made It', [
        'Content-Type',
        'application/json; charset=utf-8',
        'X-Mixed-Case',
        'One',
        'set-cookie',
        'a=1; Path=/',
        'Set-Cookie',
        'b=2; Path=/',
        'Connection',
        'X-Hop-Note',
        'X-Hop-Note',
        'dropped',
        'Keep-Alive',
        'timeout=5',
        'Proxy-Authenticate',
        'Basic',
        'Content-Length',
        String(body.length),
      ]);
      res.end(body);
      return;
    }
    case '/answer/gzip':
      res.writeHead(200, [
        'Content-Type',
        'application/json',
        'Content-Encoding',
        'gzip',
        'Content-Length',
        String(GZIPPED_JSON.length),
      ]);
      res.end(GZIPPED_JSON);
      return;
    case '/answer/chunked':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('one,');
      res.write('two,');
      res.end('three');
      return;
    case '/answer/204':
      res.writeHead(204, { 'x-note': 'nothing' });
      res.end();
      return;
    case '/answer/large':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': LARGE_BODY.length });
      res.end(LARGE_BODY);
      return;
    case '/answer/medium': {
      // Sized, above a socket's high-water mark (16 KB) and below what the proxy writes in one go (64 KB), in pieces.
      const body = LARGE_BODY.subarray(0, 40 * 1024);
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': body.length });
      for (let at = 0; at < body.length; at += 8 * 1024) res.write(body.subarray(at, at + 8 * 1024));
      res.end();
      return;
    }
    case '/answer/binary':
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(BINARY_BODY);
      return;
    case '/answer/slow':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 10 });
      res.write('slow-');
      setTimeout(() => res.end('body!'), SLOW_GAP_MS).unref();
      return;
    case '/answer/hang':
      res.once('close', () => {
        if (!res.writableFinished) onCut();
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('started');
      return;
    case '/answer/silent':
      return;
    default: {
      const body = Buffer.from(JSON.stringify({ ...received, body: received.body.toString('base64') }), 'utf8');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }
  }
}

/** Starts the target on 127.0.0.1 (any free port). */
export async function startEchoTarget(): Promise<EchoTarget> {
  const received: Received[] = [];
  let cutShort = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        httpVersion: req.httpVersion,
        rawHeaders: [...req.rawHeaders],
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      answer(req, res, entry, () => cutShort++);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    received,
    get cutShort() {
      return cutShort;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
