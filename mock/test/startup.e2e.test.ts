import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../spec/operations/index.js';
import { DEFAULT_JWT_SECRET, DEFAULT_ORG, defaultOptions } from '../options.js';
import { DEFAULT_RATE } from '../rate-limit.js';
import { startHarness, type Harness } from './harness.js';

describe('the embedded defaults', () => {
  it('listen on 127.0.0.1:4010 with the admin API on and no planted fault', () => {
    const options = defaultOptions();
    expect(options.host).toBe('127.0.0.1');
    expect(options.port).toBe(4010);
    expect(options.admin).toBe(true);
    expect(options.faults.size).toBe(0);
    expect(options.latency).toBeNull();
    expect(options.jwtSecret).toBe(DEFAULT_JWT_SECRET);
    expect(DEFAULT_ORG).toBe('demo');
  });

  it('turn the per-tenant rate limit on at 300 requests per second', () => {
    expect(defaultOptions().rateLimit).toEqual({ limit: 300, windowMs: 1000 });
    expect(DEFAULT_RATE).toEqual({ limit: 300, windowMs: 1000 });
  });

  it('give a fresh options object on every call', () => {
    const a = defaultOptions();
    a.port = 1;
    expect(defaultOptions().port).toBe(4010);
  });
});

describe('a mock started with the defaults (any free port)', () => {
  let h: Harness;

  beforeAll(async () => {
    // The harness turns the rate limit off unless told: give it back the default.
    h = await startHarness({ rateLimit: defaultOptions().rateLimit });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('listens on loopback and tells its address', () => {
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(h.mock.control.options.host).toBe('127.0.0.1');
  });

  it('has a rate limiter at the default rate', () => {
    expect(h.mock.control.options.rateLimit).toEqual({ limit: 300, windowMs: 1000 });
  });

  it('answers /__mock/health without credentials', async () => {
    const res = await request(`${h.url}/__mock/health`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(await res.body.json()).toEqual({ status: 'ok' });
  });

  it('serves the contract at /openapi.json without credentials, every operation present', async () => {
    const res = await h.call('GET', '/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    const paths = res.body.paths as Record<string, Record<string, { operationId?: string }>>;
    for (const op of OPERATIONS) {
      expect(paths[op.path], op.path).toBeDefined();
      expect(paths[op.path]?.[op.method]?.operationId, `${op.method} ${op.path}`).toBe(op.operationId);
    }
  });

  it('answers a CORS preflight with the allowed origin, methods, headers and the exposed headers', async () => {
    const res = await h.call('OPTIONS', '/v1/items/skus', {
      token: null,
      headers: {
        origin: 'http://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(res.headers['access-control-allow-methods']).toMatch(/GET/);
    expect(res.headers['access-control-allow-headers']).toMatch(/authorization/i);
    const exposed = (res.headers['access-control-expose-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'location', 'preference-applied']));
  });

  it('answers an OPTIONS with an Origin but no requested method with 204 and the CORS headers', async () => {
    const res = await h.call('OPTIONS', '/v1/items/skus', { token: null, headers: { origin: 'http://app.example' } });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
  });

  it('exposes the headers on a real cross-origin request', async () => {
    const res = await h.call('GET', '/v1/items/skus?pageSize=1', {
      op: 'listSkus',
      headers: { origin: 'http://app.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(res.headers['access-control-expose-headers']).toMatch(/retry-after/);
  });
});
