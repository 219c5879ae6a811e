import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verifySignature } from '../../common/signature.js';
import type { ReferenceClient } from './client.js';

/**
 * The webhook receiver of the reference client (docs/DESIGN.md, "Client certification"): a plain `node:http` server
 * that does what the reference asks of a receiver. It verifies `X-HMAC-Signature` over the unmodified raw body with
 * the secret, in constant time, and refuses a signature that is wrong or not 64 hexadecimal characters
 * (Authentication, point 5); it answers 2xx at once and processes in the background, storing event identifiers to
 * drop duplicates (Events, point 4); processing reads the current state of what the event names with the API
 * (Events, point 5). The receiver faults of ./faults.ts each break one of those rules.
 */

interface ReceiverOptions {
  client: ReferenceClient;
  /** The tenant's webhook secret (how it is issued is not shown: the test hands it over). */
  secret: string;
  /** How long the `slow` fault waits before answering, ms. */
  slowMs?: number;
}

/** What the receiver did, for the test's diagnostics. */
interface ReceiverLog {
  /** Deliveries answered, by status. */
  answered: number[];
  /** Events processed (their ids, in order; an id twice only under the `no-dedup` fault). */
  processed: string[];
  /** Errors of background processing (a read that failed), as messages. */
  errors: string[];
}

export interface RunningReceiver {
  /** Where it listens: the endpoint to subscribe. */
  readonly url: string;
  readonly log: ReceiverLog;
  /** Resolves once every background task started so far has ended. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** The raw body, exactly as received: the bytes the signature covers. */
async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function parse(raw: Buffer): { id?: string; data?: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(raw.toString('utf8'));
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

export async function startReceiver({ client, secret, slowMs = 0 }: ReceiverOptions): Promise<RunningReceiver> {
  const seen = new Set<string>();
  const tasks = new Set<Promise<void>>();
  const log: ReceiverLog = { answered: [], processed: [], errors: [] };

  /** Processing in the background: the answer never waits for it (Events, point 4). */
  const background = (eventId: string, data: Record<string, unknown> | undefined) => {
    const task = (async () => {
      log.processed.push(eventId);
      if (client.has('no-read') || !data) return;
      await client.readNamed(data);
    })()
      .catch((error: unknown) => {
        log.errors.push(error instanceof Error ? error.message : String(error));
      })
      .finally(() => tasks.delete(task));
    tasks.add(task);
  };

  const answer = async (res: ServerResponse, status: number) => {
    if (client.has('slow')) await new Promise((resolve) => setTimeout(resolve, slowMs));
    log.answered.push(status);
    res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' });
    res.end(status === 204 ? undefined : JSON.stringify({ status }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await rawBody(req);
    if (req.method !== 'POST') return answer(res, 405);
    const signature = req.headers[SIGNATURE_HEADER.toLowerCase()];
    // The bytes as received: re-serialising the parsed JSON may break the match (Authentication, point 5).
    const signed = client.has('reserialise') ? Buffer.from(JSON.stringify(parse(raw) ?? {})) : raw;
    const valid = verifySignature(signed, signature, secret);
    const event = parse(raw);
    const eventId = event?.id ?? header(req, EVENT_ID_HEADER);
    if (!valid) {
      if (client.has('process-forged') && eventId) background(eventId, event?.data);
      return answer(res, client.has('accept-forged') ? 200 : 401);
    }
    if (!eventId) return answer(res, 400);
    const duplicate = seen.has(eventId);
    seen.add(eventId);
    if (!duplicate || client.has('no-dedup')) background(eventId, event?.data);
    // The fault refuses the first delivery of an event in the compact form only (see ./faults.ts, refuse-valid).
    const compact = !raw.includes(0x0a);
    if (client.has('refuse-valid') && !duplicate && compact) return answer(res, 500);
    return answer(res, 204);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    log,
    idle: async () => {
      while (tasks.size) await Promise.allSettled([...tasks]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
