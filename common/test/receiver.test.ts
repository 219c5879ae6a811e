import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type WebhookReceiver } from '../receiver.js';
import { SIGNATURE_HEADER, sign } from '../signature.js';

const SECRET = 'whsec_receiver_test';
const BODY = '{"id":"evt_1","eventName":"Warehouse.Shipment.Shipped", "data":{"note":"caf\\u00e9"}}';

const started: WebhookReceiver[] = [];
const start = async (...args: Parameters<typeof startReceiver>) => {
  const r = await startReceiver(...args);
  started.push(r);
  return r;
};
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

/** POSTs a body and reads the answer (the connection is not kept: each test closes its receiver). */
async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', connection: 'close', ...headers },
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

describe('the common webhook receiver', () => {
  it('keeps the raw bytes of each delivery exactly as sent, with method, path, query and headers', async () => {
    const r = await start();
    const answer = await post(`${r.url}/hooks/a?x=1`, BODY, { 'x-event-id': 'evt_1' });
    expect(answer).toMatchObject({ status: 200, text: 'ok' });
    const [d] = r.received;
    expect(d!.raw.toString('utf8')).toBe(BODY);
    expect(d).toMatchObject({
      index: 0,
      method: 'POST',
      path: '/hooks/a',
      url: '/hooks/a?x=1',
      truncated: false,
      signature: 'unchecked',
      remoteAddress: '127.0.0.1',
    });
    expect(d!.headers['x-event-id']).toBe('evt_1');
    expect(d!.json.data.note).toBe('café');
  });

  it('verifies X-HMAC-Signature on the raw bytes when it knows the secret', async () => {
    const r = await start({ secret: SECRET });
    await post(r.url, BODY, { [SIGNATURE_HEADER]: sign(BODY, SECRET) });
    await post(r.url, BODY, { [SIGNATURE_HEADER]: sign(BODY, 'another secret') });
    await post(r.url, JSON.stringify(JSON.parse(BODY)), { [SIGNATURE_HEADER]: sign(BODY, SECRET) });
    await post(r.url, BODY);
    expect(r.received.map((d) => d.signature)).toEqual(['valid', 'invalid', 'invalid', 'invalid']);
  });

  it('takes a secret per request, and leaves a request without one unchecked', async () => {
    const secrets = new Map([['org-a', SECRET]]);
    const r = await start({ secret: ({ path }) => secrets.get(path.split('/').pop() ?? '') });
    await post(`${r.url}/hook/org-a`, BODY, { [SIGNATURE_HEADER]: sign(BODY, SECRET) });
    await post(`${r.url}/hook/org-b`, BODY, { [SIGNATURE_HEADER]: sign(BODY, SECRET) });
    expect(r.received.map((d) => d.signature)).toEqual(['valid', 'unchecked']);
  });

  it('answers as its responder decides, and the responder can be replaced', async () => {
    const r = await start(({ index }) => ({
      status: index === 0 ? 503 : 201,
      body: `answer ${index}`,
      headers: { 'content-type': 'text/plain', 'x-answer': String(index) },
    }));
    expect(await post(r.url, BODY)).toMatchObject({ status: 503, text: 'answer 0', headers: { 'x-answer': '0' } });
    expect(await post(r.url, BODY)).toMatchObject({ status: 201, text: 'answer 1' });
    r.respondWith(async () => ({ status: 204 }));
    expect((await post(r.url, BODY)).status).toBe(204);
  });

  it('answers 500 when the responder fails or answers something Node refuses', async () => {
    const r = await start(() => {
      throw new Error('a bug');
    });
    expect(await post(r.url, BODY)).toMatchObject({ status: 500, text: 'responder failed' });
    r.respondWith(() => ({ status: 42 }));
    expect((await post(r.url, BODY)).status).toBe(500);
  });

  it('drops the connection on reset, and never answers on hang until it closes', async () => {
    const r = await startReceiver(() => 'reset');
    await expect(post(r.url, BODY)).rejects.toThrow();
    r.respondWith(() => 'hang');
    const hanging = post(r.url, BODY);
    await r.waitForCount(2);
    await r.close();
    await expect(hanging).rejects.toThrow();
  });

  it('reads at most maxBodyBytes: a larger body, declared or streamed, is truncated and the connection closed', async () => {
    const r = await start({ maxBodyBytes: 1024, respond: ({ truncated }) => ({ status: truncated ? 413 : 200 }) });
    const declared = await post(r.url, Buffer.alloc(4096, 'a'));
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    const streamed = await request(r.url, {
      method: 'POST',
      body: Readable.from([1, 2, 3, 4].map(() => Buffer.alloc(1000, 'b'))),
    });
    expect(streamed.statusCode).toBe(413);
    await streamed.body.dump();
    expect(r.received.map((d) => [d.truncated, d.raw.length <= 1024, d.signature])).toEqual([
      [true, true, 'unchecked'],
      [true, true, 'unchecked'],
    ]);
    expect((await post(r.url, 'small')).status).toBe(200);
  });

  it('keeps a bounded history and counts every request', async () => {
    const r = await start({ historyLimit: 2 });
    for (const n of [1, 2, 3]) await post(`${r.url}/${n}`, BODY);
    expect(r.count).toBe(3);
    expect(r.received.map((d) => d.path)).toEqual(['/2', '/3']);
  });

  it('waits for a delivery already received or still to come', async () => {
    const r = await start();
    await post(`${r.url}/first`, BODY);
    const already = await r.waitFor((d) => d.path === '/first', 1000);
    expect(already.ok && already.delivery.path).toBe('/first');
    const coming = r.waitFor((d) => d.path === '/second', 5000);
    await post(`${r.url}/second`, BODY);
    const next = await coming;
    expect(next.ok && next.delivery.index).toBe(1);
  });

  it('names what did arrive when a wait times out', async () => {
    const r = await start();
    const nothing = await r.waitFor(() => true, 20, 'of anything');
    expect(nothing).toEqual({ ok: false, error: 'no delivery of anything within 20 ms (nothing arrived)' });
    await post(`${r.url}/other`, '{}');
    const wrong = await r.waitFor((d) => d.path === '/wanted', 20, 'to /wanted');
    expect(wrong).toEqual({
      ok: false,
      error: 'no delivery to /wanted within 20 ms (1 arrived, the last: POST /other (2 bytes, signature unchecked))',
    });
    await expect(r.waitForCount(3, 20)).rejects.toThrow('no delivery number 3 within 20 ms (1 arrived');
  });

  it('ends pending waits when it closes and leaves no server or timer behind', async () => {
    const before = await resources();
    const r = await startReceiver(() => 'hang');
    const waiting = r.waitFor(() => false, 60_000);
    const hanging = post(r.url, BODY).catch(() => 'dropped');
    await r.waitForCount(1);
    await r.close();
    expect(await waiting).toEqual({ ok: false, error: 'the receiver closed' });
    expect(await hanging).toBe('dropped');
    await expect(post(r.url, BODY)).rejects.toThrow(/ECONNREFUSED/);
    // Other test files share this worker: their timers may end meanwhile, so only growth is a leak.
    const after = await resources();
    for (const kind of Object.keys(after)) expect(after[kind], kind).toBeLessThanOrEqual(before[kind] ?? 0);
  });

  it('lets answers under way finish within the grace period of close', async () => {
    let release: () => void = () => undefined;
    const r = await startReceiver(() => new Promise((resolve) => (release = () => resolve({ status: 202 }))));
    const answer = post(r.url, BODY);
    await r.waitForCount(1);
    const closed = r.close(10_000);
    release();
    expect((await answer).status).toBe(202);
    await closed;
  });

  it('shows a wildcard host as 127.0.0.1 and reports a port in use with its code', async () => {
    const r = await start({ host: '0.0.0.0' });
    expect(r.url).toBe(`http://127.0.0.1:${r.port}`);
    await expect(startReceiver({ host: '0.0.0.0', port: r.port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

/**
 * Listening servers and timers of this process (what a receiver could leave behind), once the handles closed in
 * the previous turn are gone. Client sockets are the HTTP client's, not the receiver's: not counted.
 */
async function resources(): Promise<Record<string, number>> {
  // Two turns of the event loop: handles closed in this one are released in its close phase, after setImmediate.
  for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo())
    if (kind === 'TCPServerWrap' || kind === 'Timeout') counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
