import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

const EVIL = 'http://evil.example';
const HARNESS = 'http://localhost:5173';

describe('the admin API of a loopback mock and web pages of other sites', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ corsOrigin: [HARNESS], allowedHost: ['mock.internal'] });
  });

  afterAll(async () => {
    await h?.close();
  });

  const clock = (headers: Record<string, string>) => h.call('GET', '/__mock/clock', { headers });

  it('answers clients that are no browser, its own origin, and addresses typed in the browser', async () => {
    expect((await clock({})).status).toBe(200);
    expect((await clock({ origin: 'http://localhost:80' })).status).toBe(200);
    expect((await clock({ 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await clock({ 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await clock({ host: '127.0.0.1:4010' })).status).toBe(200);
    expect((await clock({ host: '[::1]:4010' })).status).toBe(200);
  });

  it('refuses a page of another origin, preflight or not, naming --cors-origin', async () => {
    const reply = await clock({ origin: EVIL });
    expectProblem(reply, 403, null, 'GET /__mock/clock');
    expect(reply.body.detail).toContain(`--cors-origin ${EVIL}`);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await h.call('OPTIONS', '/__mock/reset', {
      token: null,
      headers: {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-admin-key',
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await h.call('POST', '/__mock/reset', { headers: { origin: 'null' }, body: {} })).status).toBe(403);
  });

  it('refuses a page of another site or port that sends no Origin (Sec-Fetch-Site)', async () => {
    expect((await clock({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await clock({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
  });

  it('refuses a Host that is not one of its names (DNS rebinding), naming --allowed-host', async () => {
    const reply = await clock({ host: 'evil.example:4010', origin: 'http://evil.example:4010' });
    expectProblem(reply, 403, null);
    expect(reply.body.detail).toContain('--allowed-host evil.example');
    expect((await clock({ host: 'mock.internal:4010' })).status).toBe(200);
  });

  it('refuses a guarded path however it is spelled', async () => {
    expect((await h.call('GET', '/__m%6Fck/clock', { headers: { origin: EVIL } })).status).not.toBe(200);
  });

  it('lets the origins of --cors-origin call it, with CORS headers', async () => {
    const reply = await clock({ origin: HARNESS, 'sec-fetch-site': 'same-site' });
    expect(reply.status).toBe(200);
    expect(reply.headers['access-control-allow-origin']).toBe(HARNESS);
    const preflight = await h.call('OPTIONS', '/__mock/reset', {
      token: null,
      headers: { origin: HARNESS, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(HARNESS);
  });

  it('keeps health, the admin document and /v1 open to every origin', async () => {
    expect((await h.call('GET', '/__mock/health', { token: null, headers: { origin: EVIL } })).status).toBe(200);
    expect((await h.call('GET', '/__mock/openapi.json', { token: null, headers: { origin: EVIL } })).status).toBe(200);
    const v1 = await h.call('GET', '/v1/items/skus?pageSize=1', { headers: { origin: EVIL, host: 'evil.example' } });
    expect(v1.status).toBe(200);
    expect(v1.headers['access-control-allow-origin']).toBe(EVIL);
  });
});

describe('the admin API of a mock on a non-loopback host', () => {
  it('leaves Origin and Host to the admin key', async () => {
    const h = await injectHarness({ host: '0.0.0.0' });
    try {
      const reply = await h.call('GET', '/__mock/clock', {
        headers: { origin: EVIL, host: 'opsapi_mock:4010', 'sec-fetch-site': 'cross-site' },
      });
      expect(reply.status).not.toBe(403);
    } finally {
      await h.close();
    }
  });
});
