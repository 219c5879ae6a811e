import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { chooseEvents } from '../receiver/events.js';
import { formatJson, formatLine, type ReceivedEvent } from '../receiver/format.js';
import { RecentSet } from '../receiver/recent-set.js';
import { startWebhookReceiver, type RunningReceiver } from '../receiver/server.js';
import { closedPort } from '../../common/closed-port.js';
import { sign } from '../../common/signature.js';
import { startReceiver, type WebhookReceiver } from '../../common/receiver.js';

const SECRET = 'whsec_listen_test';

const payload = (id: string, version = 1) => ({
  id,
  eventName: 'Warehouse.Shipment.Shipped',
  eventVersion: version,
  occurredAt: '2026-01-01T00:00:00.000Z',
  orgCode: 'demo',
  data: { shipmentId: 'SHP-1', salesOrderId: null },
});

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
  return { status: res.statusCode, text: await res.body.text(), headers: res.headers };
}

const signed = (raw: string, secret = SECRET) => ({ 'x-hmac-signature': sign(raw, secret) });

describe('RecentSet', () => {
  it('forgets the least recently used key first; has() counts as a use', () => {
    const set = new RecentSet(3);
    for (const k of ['a', 'b', 'c']) set.add(k);
    expect(set.has('a')).toBe(true);
    set.add('d');
    expect([set.has('a'), set.has('b'), set.has('c'), set.has('d')]).toEqual([true, false, true, true]);
    expect(set.size).toBe(3);
    for (let i = 0; i < 1000; i++) set.add(`k${i}`);
    expect(set.size).toBe(3);
    expect(() => new RecentSet(0)).toThrow(RangeError);
  });
});

describe('chooseEvents', () => {
  const available = [
    { eventName: 'A.B.C', eventVersion: 1 },
    { eventName: 'A.B.C', eventVersion: 2 },
    { eventName: 'D.E.F', eventVersion: 1 },
  ];
  it('defaults to every name at its latest version', () => {
    expect(chooseEvents(available, undefined)).toEqual({
      ok: true,
      value: [
        { eventName: 'A.B.C', eventVersion: 2 },
        { eventName: 'D.E.F', eventVersion: 1 },
      ],
    });
  });
  it('takes names (latest version) and Name@version, without duplicates', () => {
    expect(chooseEvents(available, ['D.E.F', 'A.B.C@1', 'A.B.C@1', 'A.B.C'])).toEqual({
      ok: true,
      value: [
        { eventName: 'A.B.C', eventVersion: 1 },
        { eventName: 'A.B.C', eventVersion: 2 },
        { eventName: 'D.E.F', eventVersion: 1 },
      ],
    });
  });
  it('names unknown events and versions', () => {
    const result = chooseEvents(available, ['A.B.C@3', 'Nope.No.No']);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/"A\.B\.C@3", "Nope\.No\.No"/);
  });
});

describe('line formats', () => {
  const event: ReceivedEvent = {
    receivedAt: new Date('2026-03-04T05:06:07.089Z'),
    kind: 'new',
    eventId: 'evt_1',
    eventName: 'Warehouse.Shipment.Shipped',
    eventVersion: 1,
    notificationId: 'ntf_1',
    occurredAt: '2026-03-04T05:06:07.000Z',
    data: { shipmentId: 'SHP-1', salesOrderId: null, note: 'two words' },
  };
  it('prints one readable line per event', () => {
    expect(formatLine(event)).toBe(
      '05:06:07.089 Warehouse.Shipment.Shipped v1 evt_1 verified shipmentId=SHP-1 salesOrderId=null note="two words"',
    );
    expect(formatLine({ ...event, kind: 'duplicate' })).toBe(
      '05:06:07.089 Warehouse.Shipment.Shipped v1 evt_1 duplicate (already received; not processed again)',
    );
    expect(formatLine({ ...event, forwardStatus: 202 })).toContain(' verified -> 202 ');
  });
  it('cuts long data', () => {
    const line = formatLine({ ...event, data: { text: 'x'.repeat(500) } });
    const data = line.slice(line.indexOf(' verified ') + ' verified '.length);
    expect(data.length).toBe(120);
    expect(data.endsWith('…')).toBe(true);
  });
  it('prints one JSON object per line with --json', () => {
    const line = formatJson(event);
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      type: 'event',
      receivedAt: '2026-03-04T05:06:07.089Z',
      verified: true,
      eventId: 'evt_1',
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
      notificationId: 'ntf_1',
      occurredAt: '2026-03-04T05:06:07.000Z',
      data: event.data,
    });
    expect(JSON.parse(formatJson({ ...event, kind: 'duplicate' })).type).toBe('duplicate');
  });
});

describe('the webhook receiver of opsapi listen', () => {
  let receiver: RunningReceiver;
  const events: ReceivedEvent[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      maxBodyBytes: 64 * 1024,
      onEvent: (e) => events.push(e),
      onWarning: (w) => warnings.push(w),
    });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('accepts a correctly signed delivery once and answers a duplicate 200 without treating it as new', async () => {
    const raw = JSON.stringify(payload('evt_dup'));
    const first = await post(receiver.url, raw, {
      ...signed(raw),
      'x-event-id': 'evt_dup',
      'x-notification-id': 'ntf_9',
    });
    expect(first.status).toBe(200);
    const again = await post(receiver.url, raw, signed(raw));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.text)).toEqual({ received: true, duplicate: true });
    const mine = events.filter((e) => e.eventId === 'evt_dup');
    expect(mine.map((e) => e.kind)).toEqual(['new', 'duplicate']);
    expect(mine[0]).toMatchObject({
      eventName: 'Warehouse.Shipment.Shipped',
      eventVersion: 1,
      notificationId: 'ntf_9',
      data: { shipmentId: 'SHP-1' },
    });
    // The same event id for another version (two subscriptions) is another delivery.
    const v2 = JSON.stringify(payload('evt_dup', 2));
    expect((await post(receiver.url, v2, signed(v2))).status).toBe(200);
    expect(events.filter((e) => e.eventId === 'evt_dup').map((e) => e.kind)).toEqual(['new', 'duplicate', 'new']);
  });

  it('verifies the raw bytes: whitespace changes, another secret, uppercase or missing signatures are 401 with a warning', async () => {
    const raw = JSON.stringify(payload('evt_bad'));
    const cases: [string, Record<string, string>, RegExp][] = [
      [JSON.stringify(payload('evt_bad'), null, 2), signed(raw), /does not match/],
      [raw, signed(raw, 'another-secret'), /does not match/],
      [raw, { 'x-hmac-signature': sign(raw, SECRET).toUpperCase() }, /not 64 lowercase/],
      [raw, { 'x-hmac-signature': `sha256=${sign(raw, SECRET)}` }, /not 64 lowercase/],
      [raw, {}, /no X-HMAC-Signature/],
    ];
    for (const [body, headers, reason] of cases) {
      const before = warnings.length;
      const res = await post(receiver.url, body, headers);
      expect(res.status).toBe(401);
      expect(warnings.length).toBe(before + 1);
      expect(warnings.at(-1)).toMatch(reason);
      expect(warnings.at(-1)).toMatch(/^rejected POST \/ from 127\.0\.0\.1/);
    }
    expect(events.some((e) => e.eventId === 'evt_bad')).toBe(false);
  });

  it('refuses other methods (405) and bodies above the limit (413)', async () => {
    const get = await request(receiver.url);
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    await get.body.dump();
    const big = Buffer.alloc(100 * 1024, 'a');
    const res = await post(receiver.url, big, signed(big.toString()));
    expect(res.status).toBe(413);
  });

  it('answers 400 to a signed body that is not a JSON object', async () => {
    const raw = '[1,2]';
    expect((await post(receiver.url, raw, signed(raw))).status).toBe(400);
  });
});

describe('forwarding (--forward-to)', () => {
  let target: WebhookReceiver;
  let receiver: RunningReceiver;
  const events: ReceivedEvent[] = [];
  const warnings: string[] = [];

  beforeAll(async () => {
    target = await startReceiver(() => ({
      status: 202,
      body: 'accepted by app',
      headers: { 'content-type': 'text/plain' },
    }));
    receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      forwardTo: `${target.url}/app/hooks`,
      onEvent: (e) => events.push(e),
      onWarning: (w) => warnings.push(w),
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await target?.close();
  });

  it('forwards the raw bytes and headers and answers with the target status', async () => {
    const raw = JSON.stringify(payload('evt_fwd'));
    const res = await post(receiver.url, raw, { ...signed(raw), 'x-event-id': 'evt_fwd', 'x-custom': 'kept' });
    expect(res.status).toBe(202);
    expect(res.text).toBe('accepted by app');
    const [got] = await target.waitForCount(1);
    expect(got!.path).toBe('/app/hooks');
    expect(got!.raw.equals(Buffer.from(raw))).toBe(true);
    expect(got!.headers['x-hmac-signature']).toBe(sign(raw, SECRET));
    expect(got!.headers['x-event-id']).toBe('evt_fwd');
    expect(got!.headers['x-custom']).toBe('kept');
    expect(events.find((e) => e.eventId === 'evt_fwd')).toMatchObject({ kind: 'new', forwardStatus: 202 });
  });

  it('does not remember an event the target refused: the retry is forwarded again', async () => {
    target.respondWith(({ index: i }) => (i === 1 ? { status: 500 } : { status: 200 }));
    const raw = JSON.stringify(payload('evt_refused'));
    expect((await post(receiver.url, raw, signed(raw))).status).toBe(500);
    expect((await post(receiver.url, raw, signed(raw))).status).toBe(200);
    expect((await post(receiver.url, raw, signed(raw))).status).toBe(200);
    expect(target.received).toHaveLength(3);
    expect(events.filter((e) => e.eventId === 'evt_refused').map((e) => [e.kind, e.forwardStatus])).toEqual([
      ['new', 500],
      ['new', 200],
      ['duplicate', undefined],
    ]);
  });

  it('answers 502 with a warning when the target is down', async () => {
    const closed = await closedPort();
    const down = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      secret: SECRET,
      forwardTo: `http://127.0.0.1:${closed}/`,
      onEvent: () => undefined,
      onWarning: (w) => warnings.push(w),
    });
    try {
      const raw = JSON.stringify(payload('evt_down'));
      expect((await post(down.url, raw, signed(raw))).status).toBe(502);
      expect(warnings.at(-1)).toMatch(/^forward to http:\/\/127\.0\.0\.1:\d+\/ failed/);
    } finally {
      await down.close();
    }
  });
});
