import { describe, expect, it } from 'vitest';
import type { RequestSpec } from '../wire/client.js';
import { paceGroupOf } from '../wire/pace-group.js';
import { Pacer } from '../wire/pacer.js';

/** What a pacer needs of time (its constructor's second argument). */
type PacerTime = NonNullable<ConstructorParameters<typeof Pacer>[1]>;

/** Virtual time: `sleep` moves the clock instead of waiting, so the tests are exact and take no time. */
function virtualTime(): PacerTime & { at: number } {
  const time = {
    at: 0,
    now: () => time.at,
    sleep: async (ms: number) => {
      time.at += ms;
    },
  };
  return time;
}

/** The virtual times at which `n` requests taken one after the other may be sent. */
async function sendTimes(pacer: Pacer, time: { at: number }, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    await pacer.take();
    times.push(time.at);
  }
  return times;
}

describe('the pacer', () => {
  it('lets a burst of 80% of the limit go at once, then keeps to 95% of the rate', async () => {
    const time = virtualTime();
    const pacer = new Pacer({ limit: 100, windowMs: 1000 }, time);
    const times = await sendTimes(pacer, time, 80 + 95);
    expect(times.slice(0, 80).every((t) => t === 0)).toBe(true);
    // The 95 requests after the burst take one second of refill at 95 per second.
    expect(times.at(-1)).toBeGreaterThanOrEqual(999);
    expect(times.at(-1)).toBeLessThanOrEqual(1000 + 95);
  });

  it('serves concurrent callers in order, each with its own token', async () => {
    const time = virtualTime();
    const pacer = new Pacer({ limit: 10, windowMs: 1000 }, time);
    const order: number[] = [];
    await Promise.all(Array.from({ length: 12 }, (_, i) => pacer.take().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // 8 tokens of the burst, then 4 at 9.5 per second.
    expect(time.at).toBeGreaterThan(400);
  });

  it('after a 429 waits the indicated delay and then goes at half the rate', async () => {
    const time = virtualTime();
    const pacer = new Pacer({ limit: 100, windowMs: 1000 }, time);
    await sendTimes(pacer, time, 80);
    pacer.limited(2000);
    const [first] = await sendTimes(pacer, time, 1);
    expect(first).toBeGreaterThanOrEqual(2000);
    const start = time.at;
    const times = await sendTimes(pacer, time, 48);
    // 47.5 per second now: 48 requests from an empty bucket take about a second.
    expect((times.at(-1) as number) - start).toBeGreaterThanOrEqual(990);
  });

  it('learns once from the 429s of requests that were in flight together', async () => {
    const timeA = virtualTime();
    const timeB = virtualTime();
    const fourTimes = new Pacer({ limit: 100, windowMs: 1000 }, timeA);
    const once = new Pacer({ limit: 100, windowMs: 1000 }, timeB);
    for (let i = 0; i < 4; i++) fourTimes.limited(1000);
    once.limited(1000);
    expect(await sendTimes(fourTimes, timeA, 20)).toEqual(await sendTimes(once, timeB, 20));
  });
});

describe('the tenant a request counts against', () => {
  const group = paceGroupOf({ other: 'other-token', rateLimit: 'probe-token' });
  const spec = (over: Partial<RequestSpec>): RequestSpec => ({ method: 'GET', path: '/v1/items/skus', ...over });

  it('is the main tenant for the main, limited and unknown credentials', () => {
    expect(group(spec({}))).toBe('main');
    expect(group(spec({ auth: 'limited' }))).toBe('main');
    expect(group(spec({ auth: { bearer: 'a-token-without-one-permission' } }))).toBe('main');
    expect(group(spec({ auth: { headers: { authorization: 'Bearer forged' } } }))).toBe('main');
  });

  it('is the other tenant for its credential, however it is named', () => {
    expect(group(spec({ auth: 'other' }))).toBe('other');
    expect(group(spec({ auth: { bearer: 'other-token' } }))).toBe('other');
  });

  it('is none for the rate-limit probe, the mock admin API and requests without credentials', () => {
    expect(group(spec({ honour429: false }))).toBeUndefined();
    expect(group(spec({ path: '/__mock/fixtures' }))).toBeUndefined();
    expect(group(spec({ auth: 'none' }))).toBeUndefined();
  });

  it('keeps the probe tenant apart when a request of it honours 429', () => {
    expect(group(spec({ auth: { bearer: 'probe-token' } }))).toBe('rate-limit');
  });
});
