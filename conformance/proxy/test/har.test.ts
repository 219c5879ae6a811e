import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from 'har-format';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturedExchange } from '../exchange.js';
import { startForwardingProxy } from '../forward.js';
import { HarRecorder } from '../har.js';
import { redactHeaders } from '../redaction.js';
import { BINARY_BODY, GZIPPED_JSON, startEchoTarget } from './echo-target.js';
import { harErrors } from './har-schema.js';
import { send } from './raw-client.js';

/** An entry as the file holds it: HAR 1.2, plus Chrome's `_error` on a response that did not (fully) come. */
type RecordedEntry = Entry & { response: Entry['response'] & { _error?: string } };

const dir = mkdtempSync(join(tmpdir(), 'opsapi-har-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const fileName = () => join(dir, `run-${++files}.har`);
const CREATOR = { name: 'opsapi', version: '0.0.0-test' };

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.secret-payload.signature-part';
const SECRETS = {
  apiKey: 'ak_live_0123456789abcdef',
  adminKey: 'admin-key-0123456789',
  cookie: 'session=cookie-secret-0123456789',
  setCookie: 'session=set-cookie-secret-0123; Path=/',
  proxy: 'Basic cHJveHk6c2VjcmV0LXByb3h5',
  signature: 't=1,v1=hmac-signature-0123456789',
  query: ['q-token-0123456789', 'q-apikey-0123456789', 'q-access-0123456789', 'q-key-0123456789', 'q-secret-012345'],
};

/** A finished exchange as the proxy reports it, with fields overridable. */
function exchange(over: Partial<CapturedExchange> = {}): CapturedExchange {
  return {
    seq: 1,
    startedAt: Date.UTC(2030, 0, 2, 3, 4, 5, 678),
    durationMs: 12.3456,
    method: 'POST',
    target: '/v1/items/families/search?pageSize=5&sortBy=-name',
    httpVersion: '1.1',
    requestHeaders: [
      ['Host', '127.0.0.1:4020'],
      ['Content-Type', 'application/json'],
      ['Authorization', `Bearer ${TOKEN}`],
    ],
    requestBody: Buffer.from('{"name":"caf\u00e9"}'),
    requestBodySize: 16,
    status: 200,
    statusText: 'OK',
    responseHeaders: [
      ['content-type', 'application/json'],
      ['content-length', '11'],
    ],
    responseBody: Buffer.from('{"ok":true}'),
    responseBodySize: 11,
    ...over,
  };
}

/** Records `exchanges`, closes, and returns the file's text and parsed entries (the file must be valid HAR 1.2). */
async function record(exchanges: CapturedExchange[], baseUrl?: string) {
  const file = fileName();
  const recorder = await HarRecorder.open(file, { creator: CREATOR, ...(baseUrl ? { baseUrl } : {}) });
  for (const x of exchanges) recorder.add(x);
  await recorder.close();
  const text = readFileSync(file, 'utf8');
  const doc = JSON.parse(text) as { log: { entries: RecordedEntry[]; creator: unknown; pages: unknown[] } };
  expect(harErrors(doc)).toEqual([]);
  return { text, doc, entries: doc.log.entries, recorder };
}

describe('the HAR recorder', () => {
  it('writes a valid HAR 1.2 file with no entries', async () => {
    const { doc } = await record([]);
    expect(doc.log).toEqual({ version: '1.2', creator: CREATOR, pages: [], entries: [] });
  });

  it('records an exchange: method, URL, headers in order, query, bodies as text, status and timings', async () => {
    const { entries } = await record([exchange()]);
    const [e] = entries;
    expect(e).toMatchObject({
      startedDateTime: '2030-01-02T03:04:05.678Z',
      time: 12.346,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:4020/v1/items/families/search?pageSize=5&sortBy=-name',
        httpVersion: 'HTTP/1.1',
        queryString: [
          { name: 'pageSize', value: '5' },
          { name: 'sortBy', value: '-name' },
        ],
        postData: { mimeType: 'application/json', text: '{"name":"caf\u00e9"}' },
        bodySize: 16,
      },
      response: {
        status: 200,
        statusText: 'OK',
        content: { size: 11, mimeType: 'application/json', text: '{"ok":true}' },
        redirectURL: '',
        bodySize: 11,
      },
      timings: { send: 0, wait: 12.346, receive: 0 },
    });
    expect(e?.request.headers.map((h) => h.name)).toEqual(['Host', 'Content-Type', 'Authorization']);
    expect(e?.request.postData).not.toHaveProperty('encoding');
  });

  it('builds URLs on the given base URL (the target, base path included)', async () => {
    const { entries } = await record([exchange({ target: '/v1/x?a=1' })], 'https://api.example.test/base/');
    expect(entries[0]?.request.url).toBe('https://api.example.test/base/v1/x?a=1');
  });

  it('keeps binary and compressed bodies as base64, as sent, and says when a body was cut', async () => {
    const { entries } = await record([
      exchange({
        requestBody: BINARY_BODY,
        requestBodySize: BINARY_BODY.length,
        responseHeaders: [
          ['Content-Type', 'application/json'],
          ['Content-Encoding', 'gzip'],
        ],
        responseBody: GZIPPED_JSON,
        responseBodySize: GZIPPED_JSON.length,
      }),
      exchange({ responseBody: Buffer.from('{"results":['), responseBodySize: 5_000_000 }),
    ]);
    const [binary, cut] = entries;
    expect(binary?.request.postData).toMatchObject({ text: BINARY_BODY.toString('base64'), encoding: 'base64' });
    expect(binary?.response.content).toMatchObject({ text: GZIPPED_JSON.toString('base64'), encoding: 'base64' });
    expect(binary?.response.content.comment).toMatch(/gzip.*not decoded/);
    expect(cut?.response.content).toMatchObject({ size: 5_000_000, text: '{"results":[' });
    expect(cut?.response.content.comment).toBe('the first 12 of 5000000 bytes');
  });

  it('records an exchange the target never answered with status 0 and the reason in _error', async () => {
    const { entries } = await record([
      exchange({
        status: 0,
        statusText: '',
        responseHeaders: [],
        responseBody: Buffer.alloc(0),
        responseBodySize: 0,
        error: 'connect ECONNREFUSED 127.0.0.1:9',
      }),
    ]);
    expect(entries[0]?.response).toMatchObject({ status: 0, _error: 'connect ECONNREFUSED 127.0.0.1:9', bodySize: -1 });
  });

  it('redacts credentials in headers and query parameters: the raw secrets never appear in the file', async () => {
    const [qToken, qApiKey, qAccess, qKey, qSecret] = SECRETS.query;
    const { text, entries } = await record([
      exchange({
        target: `/v1/items/skus?token=${qToken}&api_key=${qApiKey}&access_token=${qAccess}&key=${qKey}&secret=${qSecret}&apiKey=${qApiKey}&pageSize=1`,
        requestHeaders: [
          ['Host', 'h'],
          ['Authorization', `Bearer ${TOKEN}`],
          ['X-Api-Key', SECRETS.apiKey],
          ['x-admin-key', SECRETS.adminKey],
          ['Cookie', SECRETS.cookie],
          ['Proxy-Authorization', SECRETS.proxy],
          ['X-HMAC-Signature', SECRETS.signature],
        ],
        responseHeaders: [
          ['Set-Cookie', SECRETS.setCookie],
          ['Location', `/v1/next?access_token=${qAccess}&page=2`],
        ],
      }),
    ]);
    for (const secret of [
      TOKEN,
      SECRETS.apiKey,
      SECRETS.adminKey,
      SECRETS.cookie,
      SECRETS.setCookie,
      SECRETS.signature,
      ...SECRETS.query,
    ])
      expect(text).not.toContain(secret);
    expect(text).not.toContain('cHJveHk6c2VjcmV0LXByb3h5');
    const e = entries[0]!;
    expect(e.request.headers.find((h) => h.name === 'Authorization')?.value).toBe('Bearer <redacted>');
    expect(e.request.headers.find((h) => h.name === 'Proxy-Authorization')?.value).toBe('Basic <redacted>');
    expect(e.request.headers.find((h) => h.name === 'X-Api-Key')?.value).toBe('<redacted>');
    expect(e.request.url).toBe(
      'http://h/v1/items/skus?token=<redacted>&api_key=<redacted>&access_token=<redacted>&key=<redacted>&secret=<redacted>&apiKey=<redacted>&pageSize=1',
    );
    expect(e.request.queryString.at(-1)).toEqual({ name: 'pageSize', value: '1' });
    expect(e.request.queryString.filter((q) => q.value === '<redacted>')).toHaveLength(6);
    expect(e.response.redirectURL).toBe('/v1/next?access_token=<redacted>&page=2');
  });

  it('redacts credentials in bodies: minted tokens, API key values, webhook secrets and the secrets of its headers', async () => {
    const minted = 'eyJhbGciOiJIUzI1NiJ9.eyJvcmciOiJkZW1vIn0.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
    const key = 'opsk_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const secret = 'whsec_0123456789abcdef0123456789abcdef01234567';
    const { text, entries } = await record([
      exchange({
        method: 'POST',
        target: '/__mock/tokens',
        requestHeaders: [
          ['Host', 'h'],
          ['Content-Type', 'application/json'],
          ['X-Api-Key', SECRETS.apiKey],
        ],
        requestBody: Buffer.from(JSON.stringify({ echo: SECRETS.apiKey, org: 'demo' })),
        requestBodySize: Buffer.byteLength(JSON.stringify({ echo: SECRETS.apiKey, org: 'demo' })),
        responseHeaders: [['Content-Type', 'application/json']],
        responseBody: Buffer.from(JSON.stringify({ token: minted, key, secret, name: 'kept' })),
        responseBodySize: Buffer.byteLength(JSON.stringify({ token: minted, key, secret, name: 'kept' })),
      }),
    ]);
    for (const value of [minted, key, secret, SECRETS.apiKey]) expect(text).not.toContain(value);
    const body = JSON.parse(entries[0]!.response.content.text ?? '{}') as Record<string, string>;
    expect(body).toEqual({ token: '<redacted>', key: '<redacted>', secret: '<redacted>', name: 'kept' });
    expect(JSON.parse(entries[0]!.request.postData?.text ?? '{}')).toEqual({ echo: '<redacted>', org: 'demo' });
  });

  it('shares its header redaction rule (redactHeaders) and keeps other headers as they are', () => {
    expect(
      redactHeaders([
        ['authorization', 'Bearer abc.def'],
        ['Authorization', 'opaque-token'],
        ['X-HMAC-Signature', 'v1=00'],
        ['Accept', 'application/json'],
      ]),
    ).toEqual([
      ['authorization', 'Bearer <redacted>'],
      ['Authorization', '<redacted>'],
      ['X-HMAC-Signature', '<redacted>'],
      ['Accept', 'application/json'],
    ]);
  });

  it('writes 1,000 entries, one per exchange added, into one valid file', async () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      exchange({ seq: i + 1, target: `/v1/items/skus?pageNumber=${i}` }),
    );
    const { entries, recorder } = await record(many);
    expect(entries).toHaveLength(1000);
    expect(recorder.entries).toBe(1000);
    expect(entries[999]?.request.queryString).toEqual([{ name: 'pageNumber', value: '999' }]);
  });

  it('records the traffic of a running proxy', async () => {
    const target = await startEchoTarget();
    const file = fileName();
    const recorder = await HarRecorder.open(file, { creator: CREATOR, baseUrl: target.url });
    const proxy = await startForwardingProxy({ target: target.url, onExchange: (x) => recorder.add(x) });
    try {
      await send(proxy.url, { path: '/answer/json?token=abc123', headers: ['Authorization', `Bearer ${TOKEN}`] });
      await send(proxy.url, { path: '/answer/gzip' });
    } finally {
      await proxy.close();
      await target.close();
    }
    await recorder.close();
    const text = readFileSync(file, 'utf8');
    const doc = JSON.parse(text);
    expect(harErrors(doc)).toEqual([]);
    expect(text).not.toContain(TOKEN);
    expect(doc.log.entries.map((e: RecordedEntry) => [e.request.url, e.response.status])).toEqual([
      [`${target.url}/answer/json?token=<redacted>`, 201],
      [`${target.url}/answer/gzip`, 200],
    ]);
  });

  it('cannot be opened where the file cannot be written', async () => {
    await expect(HarRecorder.open(join(dir, 'missing', 'x.har'), { creator: CREATOR })).rejects.toThrow(/ENOENT/);
  });
});
