/**
 * One webhook receiver for every part that needs one: the conformance runner, `opsapi listen`, the soak and the
 * webhook tests. A `node:http` server that keeps the raw body bytes of each request (signatures are computed on the
 * bytes as received, reference "Authentication", point 5: never on re-serialised JSON), verifies `X-HMAC-Signature`
 * when it knows the secret, answers each request as a responder decides, keeps a bounded history and lets callers
 * wait for a delivery. What to make of a delivery (dedupe, forwarding, checks, counters) stays with each user.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { SIGNATURE_HEADER, verifySignature } from './signature.js';
import { readRawBody } from './raw-body.js';

/** Whether the signature of a delivery verified: `unchecked` when no secret applies or the body was cut short. */
export type SignatureCheck = 'valid' | 'invalid' | 'unchecked';

/** One request the receiver got (any method: callers filter). */
export interface Delivery {
  /** Its rank among every request received so far, from 0. */
  readonly index: number;
  /** `Date.now()` once its body was read. */
  readonly at: number;
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly url: string;
  /** The path without the query. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body bytes exactly as received (only the first `maxBodyBytes` when `truncated`). */
  readonly raw: Buffer;
  /** The body was larger than `maxBodyBytes` (declared or sent): the rest was not read and the connection is closed after the answer. */
  readonly truncated: boolean;
  readonly signature: SignatureCheck;
  readonly remoteAddress: string;
  /** The body parsed as JSON, undefined when it is not JSON (typed loosely: tests read fields of it directly). */
  // biome-ignore lint/suspicious/noExplicitAny: tests and tools read fields of a delivered JSON body directly
  readonly json: any;
}

/** What to do with a request: answer it, never answer (the client times out), or drop the connection. */
export type Answer =
  | { readonly status: number; readonly body?: string | Buffer; readonly headers?: OutgoingHttpHeaders }
  | 'hang'
  | 'reset';

/** Decides the answer per request; `signal` aborts when the connection closes or the receiver closes (for delays). */
export type Responder = (delivery: Delivery, signal: AbortSignal) => Answer | Promise<Answer>;

/** The outcome of waiting for a delivery (errors as values: a delivery that never came is an expected outcome). */
export type Waited =
  | { readonly ok: true; readonly delivery: Delivery }
  | { readonly ok: false; readonly error: string };

interface ReceiverOptions {
  /** Address to bind (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 0: any free port). */
  readonly port?: number;
  /** The webhook secret, or a secret per request (undefined: not checked). */
  readonly secret?:
    | string
    | ((request: { readonly path: string; readonly headers: IncomingHttpHeaders }) => string | undefined);
  /** How to answer (default 200 `ok`); replace it later with `respondWith`. */
  readonly respond?: Responder;
  /** Largest body read (default 16 MiB); above it the delivery is `truncated`. */
  readonly maxBodyBytes?: number;
  /** Deliveries kept in `received`, the most recent (default 1000; 0 keeps none). */
  readonly historyLimit?: number;
  /** Node's keep-alive timeout of idle connections, ms (default Node's). */
  readonly keepAliveTimeoutMs?: number;
}

/** A receiver listening on a socket. */
export interface WebhookReceiver {
  /** `http://host:port` as bound (a wildcard host shown as 127.0.0.1). */
  readonly url: string;
  readonly port: number;
  /** The most recent deliveries, oldest first, at most `historyLimit`. */
  readonly received: readonly Delivery[];
  /** Every request received so far, including those no longer in `received`. */
  readonly count: number;
  respondWith(responder: Responder): void;
  /** The first delivery, in the history or still to come, that `match` accepts; an error naming what arrived after `timeoutMs`. */
  waitFor(match: (delivery: Delivery) => boolean, timeoutMs: number, what?: string): Promise<Waited>;
  /** The first `count` deliveries once that many arrived (those still in the history); rejects after `timeoutMs` (for tests). */
  waitForCount(count: number, timeoutMs?: number): Promise<Delivery[]>;
  /** Stops accepting, lets requests under way finish for `graceMs` (default 0), then drops every connection. */
  close(graceMs?: number): Promise<void>;
}

/** Answers 200 `ok`. */
const ok: Responder = () => ({ status: 200, body: 'ok' });

const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;
const DEFAULT_HISTORY = 1000;
/** Deliveries named in the error of a wait that timed out. */
const NAMED_IN_ERRORS = 5;

class Received implements Delivery {
  private parsed: { value: unknown } | undefined;
  constructor(
    readonly index: number,
    readonly at: number,
    readonly method: string,
    readonly url: string,
    readonly path: string,
    readonly headers: IncomingHttpHeaders,
    readonly raw: Buffer,
    readonly truncated: boolean,
    readonly signature: SignatureCheck,
    readonly remoteAddress: string,
  ) {}

  // Parsed on first use: the soak receives thousands of deliveries and reads none of them.
  // biome-ignore lint/suspicious/noExplicitAny: see Delivery.json
  get json(): any {
    if (!this.parsed) {
      try {
        this.parsed = { value: JSON.parse(this.raw.toString('utf8')) };
      } catch {
        this.parsed = { value: undefined };
      }
    }
    return this.parsed.value;
  }
}

/** One line per delivery, for the error of a wait. */
const describe = (d: Delivery) =>
  `${d.method} ${d.url} (${d.raw.length} bytes${d.truncated ? ', truncated' : ''}, signature ${d.signature})`;

/** Starts a receiver; rejects when it cannot listen (the error keeps its `code`, e.g. EADDRINUSE). */
export async function startReceiver(options: ReceiverOptions | Responder = {}): Promise<WebhookReceiver> {
  const o: ReceiverOptions = typeof options === 'function' ? { respond: options } : options;
  const host = o.host ?? '127.0.0.1';
  const maxBody = o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const historyLimit = Math.max(0, o.historyLimit ?? DEFAULT_HISTORY);
  const history: Received[] = [];
  const waiters = new Set<{ match: (d: Delivery) => boolean; settle: (w: Waited) => void }>();
  const sockets = new Set<Socket>();
  const underWay = new Set<AbortController>();
  let respond = o.respond ?? ok;
  let count = 0;
  let closing: Promise<void> | undefined;

  const secretFor = (path: string, headers: IncomingHttpHeaders) =>
    typeof o.secret === 'function' ? o.secret({ path, headers }) : o.secret;

  const record = (req: IncomingMessage, raw: Buffer, truncated: boolean): Received => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const secret = truncated ? undefined : secretFor(path, req.headers);
    const signature: SignatureCheck = secret
      ? verifySignature(raw, req.headers[SIGNATURE_HEADER.toLowerCase()], secret)
        ? 'valid'
        : 'invalid'
      : 'unchecked';
    const delivery = new Received(
      count++,
      Date.now(),
      req.method ?? '',
      url,
      path,
      req.headers,
      raw,
      truncated,
      signature,
      req.socket.remoteAddress ?? '?',
    );
    if (historyLimit > 0) {
      history.push(delivery);
      if (history.length > historyLimit) history.splice(0, history.length - historyLimit);
    }
    for (const waiter of [...waiters]) if (matches(waiter.match, delivery)) waiter.settle({ ok: true, delivery });
    return delivery;
  };

  const send = (res: ServerResponse, answer: Answer, closeAfter: boolean) => {
    if (answer === 'hang' || res.destroyed || res.headersSent) return;
    if (answer === 'reset') {
      res.socket?.destroy();
      return;
    }
    const headers = answer.headers ?? { 'content-type': 'text/plain' };
    try {
      // A body left unread, or a receiver closing: the connection is not kept for another request.
      res.writeHead(answer.status, closeAfter || closing ? { ...headers, connection: 'close' } : headers);
      res.end(answer.body ?? '');
    } catch {
      // An answer Node refuses (a status out of range, a bad header): a bug of the responder, not of the sender.
      if (!res.headersSent)
        res
          .writeHead(500, { 'content-type': 'text/plain', connection: 'close' })
          .end('responder answered an invalid response');
    }
  };

  const server = createServer((req, res) => {
    const controller = new AbortController();
    underWay.add(controller);
    res.on('error', () => undefined);
    res.once('close', () => {
      underWay.delete(controller);
      controller.abort();
    });
    readRawBody(req, maxBody).then(
      async ({ raw, truncated }) => {
        let answer: Answer;
        try {
          answer = await respond(record(req, raw, truncated), controller.signal);
        } catch {
          // The responder (or a caller's secret function) failed: a bug of the caller, answered, never a crash.
          answer = { status: 500, body: 'responder failed' };
        }
        send(res, answer, truncated);
      },
      // The client went away while sending: nothing to answer.
      () => res.destroy(),
    );
  });
  if (o.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = o.keepAliveTimeoutMs;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    // A sender that drops the connection mid-request is not an error of the receiver.
    socket.on('error', () => undefined);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (o.port ?? 0);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  const waitFor = (match: (d: Delivery) => boolean, timeoutMs: number, what = 'matching'): Promise<Waited> => {
    const found = history.find((d) => matches(match, d));
    if (found) return Promise.resolve({ ok: true, delivery: found });
    if (closing) return Promise.resolve({ ok: false, error: `no delivery ${what}: the receiver is closed` });
    return new Promise<Waited>((resolve) => {
      const waiter = {
        match,
        settle: (w: Waited) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(w);
        },
      };
      const timer = setTimeout(() => {
        const recent = history.slice(-NAMED_IN_ERRORS).map(describe);
        const got =
          count === 0
            ? 'nothing arrived'
            : `${count} arrived${recent.length ? `, the last: ${recent.join('; ')}` : ''}`;
        waiter.settle({ ok: false, error: `no delivery ${what} within ${timeoutMs} ms (${got})` });
      }, timeoutMs);
      waiters.add(waiter);
    });
  };

  return {
    url: `http://${shownHost}:${port}`,
    port,
    received: history,
    get count() {
      return count;
    },
    respondWith: (responder) => {
      respond = responder;
    },
    waitFor,
    waitForCount: async (wanted, timeoutMs = 5000) => {
      const firstOf = () => history.filter((d) => d.index < wanted);
      if (count >= wanted) return firstOf();
      const waited = await waitFor((d) => d.index >= wanted - 1, timeoutMs, `number ${wanted}`);
      if (!waited.ok) throw new Error(waited.error);
      return firstOf();
    },
    close: (graceMs = 0) => {
      closing ??= new Promise<void>((resolve) => {
        for (const waiter of [...waiters]) waiter.settle({ ok: false, error: 'the receiver closed' });
        const dropAll = () => {
          for (const socket of sockets) socket.destroy();
          for (const controller of underWay) controller.abort();
        };
        const timer = graceMs > 0 ? setTimeout(dropAll, graceMs) : undefined;
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
        if (graceMs <= 0) dropAll();
      });
      return closing;
    },
  };
}

/** A predicate that throws counts as no match (a caller's bug must not break the request being answered). */
function matches(match: (d: Delivery) => boolean, delivery: Delivery): boolean {
  try {
    return match(delivery);
  } catch {
    return false;
  }
}
