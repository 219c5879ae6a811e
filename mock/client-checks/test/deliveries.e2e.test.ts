/**
 * The webhook perturbations of the profile certify, against a real receiver on a loopback port (docs/DESIGN.md,
 * "Client certification"): after the valid delivery of each notification to a subscription the client made, an exact
 * duplicate 1 s later; once per subscription a delivery signed with a wrong key, one with a 63-character signature,
 * one with 64 characters that are not hexadecimal (each naming an entity no valid delivery names), and a valid new
 * event whose bytes differ from any re-serialisation. None is stored as a notification; the kit's own listeners are
 * neither judged nor perturbed.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_HEADER, verifySignature } from '../../../common/signature.js';
import { adminClaims } from '../../auth/presets.js';
import { freshOrg, startHarness, type Harness } from '../../test/harness.js';

/** One request a receiver got: its headers and raw body, and the status it answered. */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A receiver that verifies the signature over the raw bytes: 204 when valid, 401 when not. */
async function receiver(secret: () => string): Promise<{ server: Server; url: string; got: Received[] }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const status = verifySignature(body, req.headers[SIGNATURE_HEADER.toLowerCase()], secret()) ? 204 : 401;
      got.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const SIG = SIGNATURE_HEADER.toLowerCase();

let h: Harness;
let org: string;
let token: string;
let client: Awaited<ReturnType<typeof receiver>>;
let kit: Awaited<ReturnType<typeof receiver>>;

beforeAll(async () => {
  h = await startHarness();
  org = freshOrg('ccdeliv');
  token = await h.token(adminClaims(org));
  const secret = () => h.mock.control.tenant(org).webhookSecret();
  client = await receiver(secret);
  kit = await receiver(secret);
});

afterAll(async () => {
  await h?.close();
  for (const r of [client, kit]) if (r) await new Promise<void>((resolve) => r.server.close(() => resolve()));
});

/** The report once nothing is pending (polled, at most ~15 s: the last planned delivery is due within 5 s). */
async function settled(): Promise<any> {
  for (let i = 0; i < 150; i++) {
    const body = (await h.call('GET', '/__mock/client-checks/report', { token })).body;
    if (body.pending.length === 0) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the client checks did not settle');
}

describe('the webhook perturbations of the profile certify', () => {
  it('follows valid deliveries with the duplicate, the forged ones and the raw-sensitive one, over the same transport', async () => {
    const started = await h.call('POST', '/__mock/client-checks', {
      token,
      body: { profile: 'certify', seed: 99, readWithinMs: 200, retryAfterSeconds: 1 },
    });
    expect(started.status).toBe(201);
    // The client reads the versions, then subscribes its receiver; the kit's own listener is subscribed by set-up.
    // (An injected 429 may answer any of these requests: each is sent again after its delay, as a client would.)
    const send = async (method: string, path: string, body?: unknown) => {
      for (let i = 0; i < 3; i++) {
        const reply = await h.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
        if (reply.status !== 429) return reply;
        await new Promise((resolve) => setTimeout(resolve, Number(reply.headers['retry-after']) * 1000));
      }
      throw new Error(`${method} ${path}: 429 three times`);
    };
    await send('GET', '/v1/notifications/events/versions');
    const event = { eventName: 'Warehouse.Stock.Updated', eventVersion: 2 };
    const sub = await send('POST', '/v1/notifications/webhook/subscriptions', { endpoint: client.url, ...event });
    expect(sub.status).toBe(201);
    h.mock.control.tenant(org).subscribe(kit.url, event.eventName, event.eventVersion);

    for (let i = 0; i < 2; i++)
      expect((await h.call('POST', '/__mock/events', { token, body: { eventName: event.eventName } })).status).toBe(
        202,
      );
    const report = await settled();

    // Two notifications: 2 valid deliveries, 2 duplicates, and the 4 once-per-subscription ones.
    expect(client.got).toHaveLength(8);
    const kinds = report.perturbations.map((p: { kind: string }) => p.kind).sort();
    expect(kinds).toEqual(['duplicate', 'duplicate', 'hex-63', 'non-hex', 'raw-sensitive', 'wrong-key']);
    const signatures = client.got.map((r) => String(r.headers[SIG]));
    expect(signatures.filter((s) => /^[0-9a-f]{63}$/.test(s))).toHaveLength(1);
    expect(signatures.filter((s) => s.length === 64 && !/^[0-9a-f]+$/.test(s))).toHaveLength(1);
    // Valid: the 2 deliveries, their 2 duplicates and the raw-sensitive event; refused: the 3 forged ones.
    expect(client.got.filter((r) => r.status === 204)).toHaveLength(5);
    expect(client.got.filter((r) => r.status === 401)).toHaveLength(3);

    // The duplicates are the very bytes and event ids of the valid deliveries.
    const byEventId = new Map<string, Received[]>();
    for (const r of client.got) {
      const id = String(r.headers['x-event-id']);
      byEventId.set(id, [...(byEventId.get(id) ?? []), r]);
    }
    const repeated = [...byEventId.values()].filter((rs) => rs.length === 2);
    expect(repeated).toHaveLength(2);
    for (const [first, second] of repeated) expect(second?.body).toBe(first?.body);

    // The forged ones name an entity no valid delivery names.
    const valid = repeated.map(([first]) => JSON.parse(first?.body ?? '{}'));
    const validSkus = new Set(valid.map((p) => p.data.skuReference));
    const forged = client.got.filter((r) => r.status === 401).map((r) => JSON.parse(r.body));
    for (const p of forged) expect(validSkus.has(p.data.skuReference)).toBe(false);
    expect(new Set(forged.map((p) => p.id)).size).toBe(3);

    // The raw-sensitive event: valid, its bytes not those of any re-serialisation, the same JSON value.
    const raw = client.got.find((r) => String(r.headers['x-event-id']).endsWith('-raw-sensitive'));
    expect(raw?.status).toBe(204);
    const parsed = JSON.parse(raw?.body ?? '{}');
    expect(raw?.body).not.toBe(JSON.stringify(parsed));
    expect(raw?.body).toContain('event\\u004eame');
    expect(parsed.eventName).toBe(event.eventName);

    // The receiver's answers as the checks judged them.
    const outcome = (id: string) => report.checks.find((c: { id: string }) => c.id === id)?.outcome;
    for (const id of [
      'client.receiver-accepts',
      'client.receiver-raw-body',
      'client.receiver-rejects-forged',
      'client.receiver-refuses-forged',
      'client.receiver-fast',
      'client.receiver-dedup',
      'client.event-names-from-versions',
      'client.subscribes-offered-versions',
    ])
      expect(outcome(id), id).toBe('pass');
    // This receiver reads nothing after a notification.
    expect(outcome('client.reads-after-notification')).toBe('fail');

    // Not stored as notifications, not retried: one notification per subscription and event, one attempt each.
    const notifications = (await h.call('GET', '/v1/notifications/webhook?pageSize=100', { token })).body;
    expect(notifications.totalCount).toBe(4);
    for (const n of notifications.results) expect(n.attemptCount).toBe(1);
    // The kit's own listener got the two valid deliveries only.
    expect(kit.got).toHaveLength(2);
    expect(kit.got.every((r) => r.status === 204)).toBe(true);
  });
});

describe('the perturbations of a mock with a planted signature fault', () => {
  it('sign the raw-sensitive event as the mock signs every valid delivery: in uppercase hex under signature-uppercase-hex', async () => {
    const faulty = await startHarness({ faults: new Set(['signature-uppercase-hex']) });
    const faultyOrg = freshOrg('ccfault');
    const faultyToken = await faulty.token(adminClaims(faultyOrg));
    const r = await receiver(() => faulty.mock.control.tenant(faultyOrg).webhookSecret());
    try {
      const started = await faulty.call('POST', '/__mock/client-checks', {
        token: faultyToken,
        // The first injected 429 answers the 5th to 9th /v1 request: the one /v1 request below is never refused.
        body: { profile: 'certify', seed: 99, readWithinMs: 200, retryAfterSeconds: 1 },
      });
      expect(started.status).toBe(201);
      const sub = await faulty.call('POST', '/v1/notifications/webhook/subscriptions', {
        token: faultyToken,
        body: { endpoint: r.url, eventName: 'Warehouse.Stock.Updated', eventVersion: 2 },
      });
      expect(sub.status).toBe(201);
      const emitted = await faulty.call('POST', '/__mock/events', {
        token: faultyToken,
        body: { eventName: 'Warehouse.Stock.Updated' },
      });
      expect(emitted.status).toBe(202);
      for (let i = 0; i < 150 && r.got.length < 6; i++) await new Promise((resolve) => setTimeout(resolve, 100));

      const signatureOf = (suffix: string) =>
        String(r.got.find((g) => String(g.headers['x-event-id']).endsWith(suffix))?.headers[SIG]);
      const validId = String(r.got[0]?.headers['x-event-id']);
      expect(signatureOf(validId)).toMatch(/^[0-9A-F]{64}$/);
      expect(signatureOf('-raw-sensitive')).toMatch(/^[0-9A-F]{64}$/);
    } finally {
      await new Promise<void>((resolve) => r.server.close(() => resolve()));
      await faulty.close();
    }
  });
});
