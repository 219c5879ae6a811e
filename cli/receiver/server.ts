import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request } from 'undici';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from '../../mock/webhooks/signature.js';
import type { ReceivedEvent } from './format.js';
import { RecentSet } from './recent-set.js';

/** Settings of a webhook receiver. */
export interface ReceiverOptions {
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
  /** The webhook secret: every request's raw body must carry its HMAC-SHA256 in `X-HMAC-Signature`. */
  readonly secret: string;
  /** Forward every verified new delivery (raw bytes and headers) here and answer with its status. */
  readonly forwardTo?: string | null;
  readonly forwardTimeoutMs?: number;
  /** Largest body accepted (413 above). */
  readonly maxBodyBytes?: number;
  /** Event identifiers already received (bounded). */
  readonly seen?: RecentSet;
  /** A verified delivery: a new event or a duplicate. */
  readonly onEvent: (event: ReceivedEvent) => void;
  /** A request refused (bad signature, malformed body) or a forward that failed. */
  readonly onWarning: (message: string) => void;
  readonly now?: () => Date;
}

/** A receiver listening on a socket. */
export interface RunningReceiver {
  readonly port: number;
  /** `http://host:port` as bound (a wildcard host shown as 127.0.0.1). */
  readonly url: string;
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const FORWARD_EXCERPT_BYTES = 64 * 1024;

/** Headers that belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: OutgoingHttpHeaders = { 'content-type': 'application/json' },
  ) {}
}

const json = (status: number, value: unknown) => new HttpAnswer(status, JSON.stringify(value));

/**
 * A webhook receiver on `node:http`: keeps each request's raw bytes, verifies the signature on them (401 when it
 * does not verify), drops duplicates by the signed event id (answering 200 without processing them again),
 * reports each delivery, and optionally forwards the raw bytes and headers to another URL, answering with that
 * URL's status. An event counts as received only once it was answered 2xx, so a delivery the forward target
 * refused is processed again when the service retries it.
 */
export async function startWebhookReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const seen = options.seen ?? new RecentSet();
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const now = options.now ?? (() => new Date());
  /** Deliveries of one event under way (forwarding), so a concurrent duplicate waits for the first's answer. */
  const underWay = new Map<string, Promise<number>>();

  const reject = (req: IncomingMessage, status: number, reason: string): HttpAnswer => {
    options.onWarning(`rejected ${req.method ?? '?'} ${req.url ?? '/'} from ${req.socket.remoteAddress ?? '?'}: ${reason} (answered ${status})`);
    return json(status, { error: reason });
  };

  const forward = async (req: IncomingMessage, raw: Buffer): Promise<HttpAnswer> => {
    const target = options.forwardTo as string;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    try {
      const res = await request(target, { method: 'POST', headers, body: raw, signal: AbortSignal.timeout(options.forwardTimeoutMs ?? 10_000) });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= FORWARD_EXCERPT_BYTES) break;
      }
      const type = res.headers['content-type'];
      return new HttpAnswer(res.statusCode, Buffer.concat(chunks).subarray(0, FORWARD_EXCERPT_BYTES), typeof type === 'string' ? { 'content-type': type } : {});
    } catch (error) {
      const timedOut = (error as { name?: string }).name === 'TimeoutError';
      const status = timedOut ? 504 : 502;
      options.onWarning(`forward to ${target} failed: ${timedOut ? 'timed out' : (error as Error).message} (answered ${status})`);
      return json(status, { error: `forward to ${target} failed` });
    }
  };

  const handle = async (req: IncomingMessage): Promise<HttpAnswer> => {
    if (req.method !== 'POST') return new HttpAnswer(405, 'opsapi listen receives webhook notifications: POST only\n', { 'content-type': 'text/plain', allow: 'POST' });
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) return reject(req, 413, `body of ${declared} bytes exceeds ${maxBody}`);
    const raw = await readBody(req, maxBody);
    if (raw === null) return reject(req, 413, `body exceeds ${maxBody} bytes`);

    const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
    if (!verifySignature(raw, header, options.secret)) {
      const value = Array.isArray(header) ? header.join(',') : header;
      const reason =
        value === undefined || value === ''
          ? `no ${SIGNATURE_HEADER} header`
          : /^[0-9a-f]{64}$/.test(value)
            ? `${SIGNATURE_HEADER} does not match the body (wrong secret, or the body was changed)`
            : `${SIGNATURE_HEADER} is not 64 lowercase hexadecimal characters`;
      return reject(req, 401, `invalid signature: ${reason}`);
    }

    let payload: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
      payload = parsed as Record<string, unknown>;
    } catch (error) {
      return reject(req, 400, `signed body is not a JSON object (${(error as Error).message})`);
    }
    // The signed `id` identifies the event; the header is a convenience and only checked for consistency.
    const headerId = req.headers[EVENT_ID_HEADER.toLowerCase()];
    const eventId = typeof payload.id === 'string' && payload.id ? payload.id : typeof headerId === 'string' ? headerId : '';
    if (!eventId) return reject(req, 400, 'no event id (payload "id" or X-Event-Id)');
    if (typeof headerId === 'string' && headerId !== eventId) options.onWarning(`${EVENT_ID_HEADER} ${headerId} differs from the signed payload id ${eventId}; using the payload id`);

    const eventVersion = typeof payload.eventVersion === 'number' ? payload.eventVersion : null;
    const notificationHeader = req.headers['x-notification-id'];
    const event = (kind: ReceivedEvent['kind'], forwardStatus?: number): ReceivedEvent => ({
      receivedAt: now(),
      kind,
      eventId,
      eventName: typeof payload.eventName === 'string' ? payload.eventName : '?',
      eventVersion,
      notificationId: typeof notificationHeader === 'string' ? notificationHeader : null,
      occurredAt: typeof payload.occurredAt === 'string' ? payload.occurredAt : null,
      data: typeof payload.data === 'object' && payload.data !== null && !Array.isArray(payload.data) ? (payload.data as Record<string, unknown>) : {},
      ...(forwardStatus !== undefined ? { forwardStatus } : {}),
    });
    // Subscribing to two versions of one event delivers the same id once per version: both are wanted.
    const key = `${eventId}\u0000${eventVersion ?? ''}`;

    const pending = underWay.get(key);
    if (pending && isSuccess(await pending)) {
      options.onEvent(event('duplicate'));
      return json(200, { received: true, duplicate: true });
    }
    if (seen.has(key)) {
      options.onEvent(event('duplicate'));
      return json(200, { received: true, duplicate: true });
    }
    if (!options.forwardTo) {
      seen.add(key);
      options.onEvent(event('new'));
      return json(200, { received: true });
    }
    let settle: (status: number) => void = () => undefined;
    underWay.set(key, new Promise<number>((resolve) => (settle = resolve)));
    try {
      const answer = await forward(req, raw);
      if (isSuccess(answer.status)) seen.add(key);
      options.onEvent(event('new', answer.status));
      settle(answer.status);
      return answer;
    } finally {
      settle(599);
      underWay.delete(key);
    }
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    handle(req).then(
      (answer) => send(res, answer),
      (error: unknown) => {
        options.onWarning(`internal error: ${(error as Error).message}`);
        send(res, json(500, { error: 'internal error' }));
      },
    );
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    port,
    url: `http://${shownHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

const isSuccess = (status: number) => status >= 200 && status < 300;

function send(res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent) return;
  res.on('error', () => undefined);
  // A body left unread (too large) is not drained: the connection is closed after the answer.
  res.writeHead(answer.status, answer.status === 413 ? { ...answer.headers, connection: 'close' } : answer.headers);
  res.end(answer.body);
}

/** The body's raw bytes, or null when it exceeds `max` bytes (the rest is then not read). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > max) {
        done = true;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
  });
}
