import { describe, expect, it } from 'vitest';
import { verifySignature } from '../../../common/signature.js';
import {
  DUPLICATE_AFTER_MS,
  deliveriesAfter,
  forgedEntityValue,
  forgedSignature,
  injected429Requests,
  MAX_INJECTED_429,
  rawSensitiveBody,
} from '../plan.js';
import { EVENT_READS } from '../reads.js';
import { ClientTraceRecorder } from '../recorder.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

/** The shape the recorder keeps of an Authorization header. */
const authShape = (authorization: string) =>
  new ClientTraceRecorder().request({
    at: 0,
    answeredAt: 0,
    method: 'GET',
    path: '/v1/items/skus',
    rawQuery: '',
    authorization,
    apiKey: false,
    status: 200,
    answeredBy: 'api',
  }).auth;

describe('the recorder', () => {
  it('reads Bearer with one or more spaces before the token, in any case (RFC 9110 section 11.4, RFC 6750)', () => {
    expect(authShape(`Bearer  ${JWT}`)).toEqual({ shape: 'bearer', scheme: 'Bearer', jwt: true });
    expect(authShape(`BEARER    ${JWT}`)).toEqual({ shape: 'bearer', scheme: 'BEARER', jwt: true });
    // Whitespace around a field value is not part of it (RFC 9110 section 5.5).
    expect(authShape(` Bearer ${JWT}\t`).shape).toBe('bearer');
    // Still malformed: no token, a separator other than spaces, more than one word after the scheme.
    expect(authShape('Bearer   ').shape).toBe('bearer-malformed');
    expect(authShape(`Bearer\t${JWT}`).shape).toBe('bearer-malformed');
    expect(authShape(`Bearer  ${JWT} extra`).shape).toBe('bearer-malformed');
    // A bearer token without a scheme, or under another scheme, is still not Bearer <token>.
    expect(authShape(`  ${JWT}`)).toEqual({ shape: 'no-scheme', jwt: true });
    expect(authShape(`Token  ${JWT}`)).toEqual({ shape: 'other', scheme: 'Token', jwt: true });
  });
  it('keeps the shape of the Authorization header, never the token', () => {
    expect(authShape(`bearer ${JWT}`)).toEqual({ shape: 'bearer', scheme: 'bearer', jwt: true });
    expect(authShape('Bearer').shape).toBe('bearer-malformed');
    expect(authShape(JWT)).toEqual({ shape: 'no-scheme', jwt: true });
    expect(authShape('Basic dXNlcjpwYXNz')).toEqual({ shape: 'other', scheme: 'Basic', jwt: false });
    const r = new ClientTraceRecorder();
    r.request({
      at: 1,
      answeredAt: 2,
      method: 'POST',
      path: '/v1/access/apiKeys',
      rawQuery: 'access_token=abc&x=1',
      authorization: `Bearer ${JWT}`,
      apiKey: false,
      body: '{"name":"k"}',
      contentType: 'application/json',
      status: 201,
      answeredBy: 'api',
    });
    const text = JSON.stringify(r.trace());
    expect(text).not.toContain(JWT);
    expect(text).not.toContain('abc');
    expect(r.trace().requests[0]).toMatchObject({
      seq: 1,
      rawQuery: 'access_token=<redacted>&x=1',
      body: { bytes: 12 },
    });
  });
  it('is bounded: it drops the oldest records and counts them', () => {
    const r = new ClientTraceRecorder({
      requests: 3,
      deliveries: 2,
      subscriptions: 1,
      perturbations: 2,
      eventReads: 1,
    });
    for (let i = 0; i < 5; i++)
      r.request({
        at: i,
        answeredAt: i,
        method: 'GET',
        path: '/v1/x',
        rawQuery: '',
        apiKey: false,
        status: 429,
        answeredBy: 'injected',
      });
    const t = r.trace();
    expect(t.requests.map((x) => x.seq)).toEqual([3, 4, 5]);
    expect(t.overflow).toEqual({ requests: 2, deliveries: 0, subscriptions: 0, perturbations: 3 });
    expect(t.perturbations.map((p) => p.requestSeq)).toEqual([4, 5]);
  });
  it('records deliveries, their answers, and the perturbations among them', () => {
    const r = new ClientTraceRecorder();
    const base = { subscriptionId: 's', eventId: 'e', eventName: 'Items.Sku.Created', eventVersion: 1, sentAt: 10 };
    const a = r.delivery({ ...base, kind: 'valid' });
    const b = r.delivery({ ...base, kind: 'duplicate', sentAt: 1010 });
    r.answer(a, { status: 200, at: 20 });
    r.answer(b, { error: 'timeout', at: 5000 });
    const t = r.trace();
    expect(t.deliveries.map((d) => d.answer)).toEqual([
      { status: 200, at: 20 },
      { error: 'timeout', at: 5000 },
    ]);
    expect(t.perturbations).toEqual([
      { kind: 'duplicate', at: 1010, deliverySeq: 2, subscriptionId: 's', eventId: 'e' },
    ]);
  });
});

describe('the perturbation plan', () => {
  it('injects a 429 in one request of every 5 to 9, at most 20, the same for a seed', () => {
    const plan = injected429Requests(42);
    expect(plan).toHaveLength(MAX_INJECTED_429);
    expect(injected429Requests(42)).toEqual(plan);
    expect(injected429Requests(43)).not.toEqual(plan);
    plan.forEach((n, i) => {
      const gap = n - (plan[i - 1] ?? 0);
      expect(gap).toBeGreaterThanOrEqual(5);
      expect(gap).toBeLessThanOrEqual(9);
    });
  });
  it('follows each delivery with a duplicate, and the first of a subscription with the forged and raw ones', () => {
    expect(deliveriesAfter(1, 1, false)).toEqual([{ kind: 'duplicate', afterMs: DUPLICATE_AFTER_MS }]);
    const first = deliveriesAfter(1, 1, true);
    expect(first.map((d) => d.kind).sort()).toEqual(['duplicate', 'hex-63', 'non-hex', 'raw-sensitive', 'wrong-key']);
    expect(deliveriesAfter(1, 1, true)).toEqual(first);
    expect(forgedEntityValue(1, 1, 'hex-63')).toBe(forgedEntityValue(1, 1, 'hex-63'));
    expect(forgedEntityValue(1, 1, 'hex-63')).not.toBe(forgedEntityValue(1, 1, 'non-hex'));
  });
  it('signs forged deliveries so that no correct receiver accepts them', () => {
    const body = '{"id":"e"}';
    const wrong = forgedSignature('wrong-key', body, 'whsec_secret', 1);
    expect(wrong).toMatch(/^[0-9a-f]{64}$/);
    const short = forgedSignature('hex-63', body, 'whsec_secret', 1);
    expect(short).toMatch(/^[0-9a-f]{63}$/);
    const notHex = forgedSignature('non-hex', body, 'whsec_secret', 1);
    expect(notHex).toHaveLength(64);
    expect(notHex).toMatch(/^[g-v]{64}$/);
    for (const s of [wrong, short, notHex]) expect(verifySignature(body, s, 'whsec_secret')).toBe(false);
  });
  it('writes a valid event whose bytes no re-serialisation gives back', () => {
    const payload = { id: 'e', eventName: 'Items.Sku.Created', data: { name: 'Écrou 3/8' } };
    const raw = rawSensitiveBody(payload);
    expect(JSON.parse(raw)).toEqual(payload);
    expect(JSON.stringify(JSON.parse(raw))).not.toBe(raw);
    expect(JSON.stringify(JSON.parse(raw), null, 2)).not.toBe(raw);
  });
});

describe('the reads that follow an event', () => {
  it('maps SKU and asset events to the operation that reads them, and leaves out events no operation reads', () => {
    expect(EVENT_READS.get('Items.Sku.Created')).toEqual({ field: 'skuReference', operationId: 'listSkus' });
    expect(EVENT_READS.get('Maintenance.Asset.Created')).toEqual({ field: 'assetId', operationId: 'listAssets' });
    expect(EVENT_READS.has('Production.Order.Finished')).toBe(false);
  });
});
