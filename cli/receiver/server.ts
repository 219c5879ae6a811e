import { startReceiver, type Answer, type Delivery } from '../../common/receiver.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../common/signature.js';
import type { ReceivedEvent } from './format.js';
import { RecentSet } from './recent-set.js';

/** Settings of a webhook receiver. */
interface ReceiverOptions {
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

const DEFAULT_MAX_BODY_BYTES = 5 * 1024 * 1024;
const FORWARD_EXCERPT_BYTES = 64 * 1024;
/** Time the forwards under way get to finish when the listener stops (inferred). */
const CLOSE_GRACE_MS = 1000;

/** Headers that belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
]);

/** An answer with a status (the listener never hangs up on purpose). */
type Reply = Exclude<Answer, string>;

const json = (status: number, value: unknown): Reply => ({
  status,
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

/** Why a signature did not verify, from the header alone. */
function signatureProblem(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value === '') return `no ${SIGNATURE_HEADER} header`;
  return /^[0-9a-f]{64}$/.test(value)
    ? `${SIGNATURE_HEADER} does not match the body (wrong secret, or the body was changed)`
    : `${SIGNATURE_HEADER} is not 64 lowercase hexadecimal characters`;
}

/**
 * The receiver of `opsapi listen`, on common/receiver.ts (which keeps each request's raw bytes and verifies the
 * signature on them): answers 401 when it does not verify, drops duplicates by the signed event id (answering 200
 * without processing them again), reports each delivery, and optionally forwards the raw bytes and headers to
 * another URL, answering with that URL's status. An event counts as received only once it was answered 2xx, so a
 * delivery the forward target refused is processed again when the service retries it.
 */
export async function startWebhookReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const seen = options.seen ?? new RecentSet();
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const now = options.now ?? (() => new Date());
  /** Deliveries of one event under way (forwarding), so a concurrent duplicate waits for the first's answer. */
  const underWay = new Map<string, Promise<number>>();

  const reject = (d: Delivery, status: number, reason: string): Reply => {
    options.onWarning(`rejected ${d.method || '?'} ${d.url} from ${d.remoteAddress}: ${reason} (answered ${status})`);
    return json(status, { error: reason });
  };

  const forward = async (d: Delivery): Promise<Reply> => {
    const target = options.forwardTo as string;
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(d.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
    try {
      // Loaded with the first forward only (./forward.ts).
      const { forwardDelivery } = await import('./forward.js');
      return await forwardDelivery(target, headers, d.raw, {
        timeoutMs: options.forwardTimeoutMs ?? 10_000,
        excerptBytes: FORWARD_EXCERPT_BYTES,
      });
    } catch (error) {
      const timedOut = (error as { name?: string }).name === 'TimeoutError';
      const status = timedOut ? 504 : 502;
      options.onWarning(
        `forward to ${target} failed: ${timedOut ? 'timed out' : (error as Error).message} (answered ${status})`,
      );
      return json(status, { error: `forward to ${target} failed` });
    }
  };

  const handle = async (d: Delivery): Promise<Reply> => {
    if (d.method !== 'POST')
      return {
        status: 405,
        body: 'opsapi listen receives webhook notifications: POST only\n',
        headers: { 'content-type': 'text/plain', allow: 'POST' },
      };
    if (d.truncated) {
      const declared = Number(d.headers['content-length'] ?? 0);
      return reject(
        d,
        413,
        declared > maxBody ? `body of ${declared} bytes exceeds ${maxBody}` : `body exceeds ${maxBody} bytes`,
      );
    }
    if (d.signature !== 'valid')
      return reject(d, 401, `invalid signature: ${signatureProblem(d.headers[SIGNATURE_HEADER.toLowerCase()])}`);

    let payload: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(d.raw.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
      payload = parsed as Record<string, unknown>;
    } catch (error) {
      return reject(d, 400, `signed body is not a JSON object (${(error as Error).message})`);
    }
    // The signed `id` identifies the event; the header is a convenience and only checked for consistency.
    const headerId = d.headers[EVENT_ID_HEADER.toLowerCase()];
    const eventId =
      typeof payload.id === 'string' && payload.id ? payload.id : typeof headerId === 'string' ? headerId : '';
    if (!eventId) return reject(d, 400, 'no event id (payload "id" or X-Event-Id)');
    if (typeof headerId === 'string' && headerId !== eventId)
      options.onWarning(
        `${EVENT_ID_HEADER} ${headerId} differs from the signed payload id ${eventId}; using the payload id`,
      );

    const eventVersion = typeof payload.eventVersion === 'number' ? payload.eventVersion : null;
    const notificationHeader = d.headers['x-notification-id'];
    const event = (kind: ReceivedEvent['kind'], forwardStatus?: number): ReceivedEvent => ({
      receivedAt: now(),
      kind,
      eventId,
      eventName: typeof payload.eventName === 'string' ? payload.eventName : '?',
      eventVersion,
      notificationId: typeof notificationHeader === 'string' ? notificationHeader : null,
      occurredAt: typeof payload.occurredAt === 'string' ? payload.occurredAt : null,
      data:
        typeof payload.data === 'object' && payload.data !== null && !Array.isArray(payload.data)
          ? (payload.data as Record<string, unknown>)
          : {},
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
      const answer = await forward(d);
      if (isSuccess(answer.status)) seen.add(key);
      options.onEvent(event('new', answer.status));
      settle(answer.status);
      return answer;
    } finally {
      settle(599);
      underWay.delete(key);
    }
  };

  const receiver = await startReceiver({
    host: options.host,
    port: options.port,
    secret: options.secret,
    maxBodyBytes: maxBody,
    // A long-running listener keeps no bodies: what it needs is printed or forwarded at once.
    historyLimit: 0,
    respond: (d) =>
      handle(d).catch((error: unknown) => {
        options.onWarning(`internal error: ${(error as Error).message}`);
        return json(500, { error: 'internal error' });
      }),
  });
  return { port: receiver.port, url: receiver.url, close: () => receiver.close(CLOSE_GRACE_MS) };
}

const isSuccess = (status: number) => status >= 200 && status < 300;
