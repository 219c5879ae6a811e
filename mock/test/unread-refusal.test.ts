import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { expectProblem, injectHarness, adminTenant, type InjectHarness } from './harness.js';

/**
 * Bodies refused before they are read (a 413 from the declared Content-Length, a 415) spend the tenant's rate limit as
 * every request does (mock/http/unread-refusal.ts); without valid credentials the refusal stands.
 */
describe('refusals before the body is read', () => {
  let h: InjectHarness;
  let m: FixtureManifest;
  const oversized = (manifest: FixtureManifest) =>
    JSON.stringify({ locationReference: manifest.sku.locationReference, stock: 1, comment: 'c'.repeat(40_000) });

  beforeAll(async () => {
    h = await injectHarness({ rateLimit: { limit: 3, windowMs: 60_000 } });
    m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
  });

  afterAll(async () => {
    await h?.close();
  });

  it('spend a token of the tenant’s rate limit each: past the limit the answer is the 429, journaled for the tenant', async () => {
    const { token } = await adminTenant(h, 'refused-bodies');
    const path = `/v1/items/skus/${m.sku.reference}/stock`;
    expectProblem(await h.call('PUT', path, { token, raw: oversized(m) }), 413, null, `PUT ${path}`);
    const unsupported = await h.call('PUT', path, { token, raw: 'stock=1', headers: { 'content-type': 'text/plain' } });
    expectProblem(unsupported, 415, null, `PUT ${path}`);
    expectProblem(await h.call('PUT', path, { token, raw: oversized(m) }), 413, null, `PUT ${path}`);

    const limited = await h.call('PUT', path, { token, raw: oversized(m) });
    expectProblem(limited, 429, 'COMMON.RATE_LIMIT.EXCEEDED', `PUT ${path}`);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The refused bodies spent the limit: the tenant's next request of any kind waits too.
    expect((await h.call('GET', '/v1/items/skus', { token })).status).toBe(429);

    const journal = (await h.call('GET', '/__mock/requests', { token })).body as { requests: { status: number }[] };
    expect(journal.requests.map((e) => e.status)).toEqual([413, 415, 413, 429, 429]);
  });

  it('stay the plain 413 without valid credentials, whatever the limit', async () => {
    const path = `/v1/items/skus/${m.sku.reference}/stock`;
    for (let i = 0; i < 5; i++)
      expectProblem(await h.call('PUT', path, { token: null, raw: oversized(m) }), 413, null, `PUT ${path}`);
    expectProblem(await h.call('PUT', path, { token: 'not-a-token', raw: oversized(m) }), 413, null, `PUT ${path}`);
  });
});
