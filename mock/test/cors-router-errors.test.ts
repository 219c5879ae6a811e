/**
 * Problems the router gives before any hook runs (Fastify's `frameworkErrors`) carry the CORS headers too, so a web
 * app on another origin can read them like any other answer of the mock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectHarness, type InjectHarness } from './harness.js';

const ORIGIN = 'http://app.example';

describe("CORS on the router's own problems", () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  for (const [what, path] of [
    ['a path segment that is not valid percent-encoding', '/v1/items/skus/%E0%A4%A/stock'],
    ['a path segment over the length the router reads', `/v1/items/skus/${'x'.repeat(1200)}/stock`],
  ] as const) {
    it(`answers ${what} with its 404 problem, readable from another origin`, async () => {
      const reply = await h.call('PUT', path, { headers: { origin: ORIGIN }, body: {} });
      expect(reply.status).toBe(404);
      expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(reply.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(reply.headers['access-control-expose-headers']).toMatch(/retry-after/);
      expect(reply.headers.vary).toMatch(/origin/i);
    });
  }

  it('adds no CORS header when the request names no origin', async () => {
    const reply = await h.call('PUT', '/v1/items/skus/%E0%A4%A/stock', { body: {} });
    expect(reply.status).toBe(404);
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });
});
