import { afterAll, describe, expect, it } from 'vitest';
import type { RetryDelayUnit } from '../../../spec/decisions/index.js';
import { RETRY_DELAY_UNITS } from '../../../spec/decisions/kinds.js';
import { adminClaims } from '../../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from '../../test/harness.js';
import { retryDelayHook } from '../retry-delay.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';

/** One request per minute: the second request of a tenant is a 429. */
const ONE_PER_MINUTE = { limit: 1, windowMs: 60_000 };

/** The 429 a fresh tenant gets on its second request. */
async function limited(h: InjectHarness) {
  const token = await h.token(adminClaims(freshOrg('delay')));
  expect((await h.call('GET', '/v1/admin/tenants/self', { token })).status).toBe(200);
  const reply = await h.call('GET', '/v1/admin/tenants/self', { token, headers: { origin: 'https://app.example' } });
  expectProblem(reply, 429, 'COMMON.RATE_LIMIT.EXCEEDED', 'GET /v1/admin/tenants/self');
  return reply;
}

/** What the adopted hook writes for a 429 whose `Retry-After` says `seconds`, in `unit`, at `nowMs`. */
async function retryDelayValue(unit: RetryDelayUnit, seconds: number, nowMs: number): Promise<unknown> {
  const headers = new Map<string, unknown>([['retry-after', String(seconds)]]);
  const reply = {
    statusCode: 429,
    getHeader: (name: string) => headers.get(name),
    removeHeader: (name: string) => headers.delete(name),
    header: (name: string, value: unknown) => headers.set(name, value),
  };
  await retryDelayHook({ header: 'X-Delay', unit }, { now: () => nowMs })?.({} as never, reply as never, '');
  return headers.get('x-delay');
}

describe('the retry delay written in each unit', () => {
  // 2025-06-01T10:00:00.250Z: instants round up to the next whole second.
  const now = Date.UTC(2025, 5, 1, 10, 0, 0, 250);

  it.each([
    ['seconds', '30'],
    ['milliseconds', '30000'],
    ['epoch-seconds', String(Date.UTC(2025, 5, 1, 10, 0, 31) / 1000)],
    ['http-date', 'Sun, 01 Jun 2025 10:00:31 GMT'],
  ] as const)('tells 30 s in %s as %s', async (unit, value) => {
    expect(await retryDelayValue(unit, 30, now)).toBe(value);
  });
});

describe('retry-delay decisions (the header and unit of a 429 delay, which the reference does not give)', () => {
  const harnesses: InjectHarness[] = [];

  async function mock(delay?: { header: string; unit: RetryDelayUnit }): Promise<InjectHarness> {
    const h = await injectHarness({
      rateLimit: ONE_PER_MINUTE,
      ...(delay ? { decisions: decisionFile({ 'retry-delay': delay }) } : {}),
    });
    harnesses.push(h);
    return h;
  }

  afterAll(async () => {
    for (const h of harnesses) await h.close();
  });

  it('without decisions, tells the delay in Retry-After, in seconds', async () => {
    const reply = await limited(await mock());
    expect(reply.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  });

  it('with Retry-After in milliseconds, tells it there in milliseconds', async () => {
    const reply = await limited(await mock({ header: 'Retry-After', unit: 'milliseconds' }));
    expect(reply.headers['retry-after']).toMatch(/^[1-9]\d*000$/);
    expect(Number(reply.headers['retry-after'])).toBeLessThanOrEqual(60_000);
  });

  it.each(RETRY_DELAY_UNITS)('with X-RateLimit-Reset in %s, tells it there and sends no Retry-After', async (unit) => {
    const before = Date.now();
    const reply = await limited(await mock({ header: 'X-RateLimit-Reset', unit }));
    const after = Date.now();
    const value = reply.headers['x-ratelimit-reset'] ?? '';
    expect(reply.headers).not.toHaveProperty('retry-after');
    expect(reply.headers['access-control-expose-headers']).toContain('x-ratelimit-reset');
    // The delay is at most the window: one minute from now.
    const seconds = Math.floor(before / 1000);
    const latest = Math.ceil(after / 1000) + 60;
    switch (unit) {
      case 'seconds':
        expect(Number(value)).toBeGreaterThanOrEqual(1);
        expect(Number(value)).toBeLessThanOrEqual(60);
        break;
      case 'milliseconds':
        expect(Number(value)).toBeGreaterThanOrEqual(1000);
        expect(Number(value)).toBeLessThanOrEqual(60_000);
        break;
      case 'epoch-seconds':
        expect(value).toMatch(/^\d+$/);
        expect(Number(value)).toBeGreaterThan(seconds);
        expect(Number(value)).toBeLessThanOrEqual(latest);
        break;
      case 'http-date':
        expect(value).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
        expect(Date.parse(value) / 1000).toBeGreaterThan(seconds);
        expect(Date.parse(value) / 1000).toBeLessThanOrEqual(latest);
        break;
    }
  });

  it('moves the delay of a 429 forced with Prefer: code=429 too', async () => {
    const h = await mock({ header: 'X-RateLimit-Reset', unit: 'milliseconds' });
    const reply = await h.call('GET', '/v1/admin/tenants/self', { headers: { prefer: 'code=429' } });
    expect(reply.status).toBe(429);
    expect(reply.headers['x-ratelimit-reset']).toBe('1000');
    expect(reply.headers).not.toHaveProperty('retry-after');
  });
});
