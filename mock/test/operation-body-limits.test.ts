import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

/** Each operation reads at most the body its schema can need (mock/http/body-limits.ts), below `--body-limit`. */
describe('operation body limits', () => {
  let h: InjectHarness;
  let small: InjectHarness;
  let m: FixtureManifest;

  beforeAll(async () => {
    [h, small] = await Promise.all([injectHarness(), injectHarness({ bodyLimit: 8192 })]);
    m = (await h.call('GET', '/__mock/fixtures')).body as FixtureManifest;
  });

  afterAll(async () => {
    await Promise.all([h?.close(), small?.close()]);
  });

  const stockPath = () => `/v1/items/skus/${m.sku.reference}/stock`;

  it('refuses a stock update over 32 KiB with a 413 that names the limit and why, though --body-limit is 1 MB', async () => {
    const reply = await h.call('PUT', stockPath(), {
      raw: JSON.stringify({ locationReference: m.sku.locationReference, stock: 1, comment: 'c'.repeat(40_000) }),
    });
    expectProblem(reply, 413, null, `PUT ${stockPath()}`);
    expect(reply.body.detail).toContain('larger than 32768 bytes, the most a valid body of this operation can need');
    expect(reply.body.detail).toContain('--body-limit 1048576');
  });

  it('reads a body under the operation limit and judges it (400 for a comment over 2,000 characters)', async () => {
    const reply = await h.call('PUT', stockPath(), {
      raw: JSON.stringify({ locationReference: m.sku.locationReference, stock: 1, comment: 'c'.repeat(20_000) }),
    });
    expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    expect(reply.body.parameters).toEqual({ field: 'comment' });
  });

  it('accepts the longest valid body, every character escaped and pretty-printed', async () => {
    // 2,000 U+0001 characters serialise as `\u0001`: 12,000 bytes of comment, the worst a valid comment can be.
    const body = { locationReference: m.sku.locationReference, stock: 1, comment: '\u0001'.repeat(2000) };
    const raw = JSON.stringify(body, null, 8);
    expect(raw.length).toBeGreaterThan(12_000);
    const reply = await h.call('PUT', stockPath(), { raw, op: 'updateSkuStock' });
    expect(reply.status).toBe(204);
  });

  it('keeps --body-limit as the ceiling: below an operation limit, it is the limit, with the plain detail', async () => {
    const manifest = (await small.call('GET', '/__mock/fixtures')).body as FixtureManifest;
    const reply = await small.call('PUT', `/v1/items/skus/${manifest.sku.reference}/stock`, {
      raw: JSON.stringify({ locationReference: manifest.sku.locationReference, stock: 1, comment: 'c'.repeat(10_000) }),
    });
    expectProblem(reply, 413, null);
    expect(reply.body.detail).toBe('The body is larger than 8192 bytes.');
  });

  it('leaves admin routes, whose bodies the contract does not bound, at --body-limit', async () => {
    const reply = await h.call('POST', '/__mock/events', {
      raw: JSON.stringify({ eventName: 'Warehouse.Stock.Updated', data: { note: 'n'.repeat(100_000) } }),
    });
    expect(reply.status).not.toBe(413);
  });
});
