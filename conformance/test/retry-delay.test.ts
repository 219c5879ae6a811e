/**
 * The retry delay of a 429 in each form it is found in (Limits: "the header or field carrying the retry delay: not
 * shown"), with where it was read.
 */
import { describe, expect, it } from 'vitest';
import { indicatedDelay, retryDelayOf } from '../wire/retry-delay.js';

/** A fixed "now", on a whole second. */
const NOW = Date.UTC(2030, 0, 2, 3, 4, 5);
const EPOCH_S = NOW / 1000;

const headers = (h: Record<string, string>) => indicatedDelay({ headers: h }, NOW);
const problem = (json: unknown) => indicatedDelay({ headers: {}, json }, NOW);

describe('indicatedDelay: headers', () => {
  it.each([
    ['retry-after', '3', 3000, 'Retry-After header (seconds)'],
    ['retry-after', new Date(NOW + 7000).toUTCString(), 7000, 'Retry-After header (http-date)'],
    ['ratelimit-reset', '4', 4000, 'RateLimit-Reset header (seconds)'],
    ['x-ratelimit-reset-after', '1.5', 1500, 'X-RateLimit-Reset-After header (seconds)'],
    ['x-ratelimit-reset-after-ms', '1250', 1250, 'X-RateLimit-Reset-After-Ms header (milliseconds)'],
    ['x-rate-limit-retry-after-ms', '800', 800, 'X-Rate-Limit-Retry-After-Ms header (milliseconds)'],
    ['x-ratelimit-reset', String(EPOCH_S + 6), 6000, 'X-RateLimit-Reset header (epoch-seconds)'],
    ['x-ratelimit-reset', '6', 6000, 'X-RateLimit-Reset header (seconds)'],
    ['x-ratelimit-reset', String(NOW + 450), 450, 'X-RateLimit-Reset header (epoch-milliseconds)'],
    ['x-rate-limit-reset', '2', 2000, 'X-Rate-Limit-Reset header (seconds)'],
    ['x-retry-after-ms', '90', 90, 'X-Retry-After-Ms header (milliseconds)'],
  ])('%s: %s', (name, value, ms, source) => {
    expect(headers({ [name]: value })).toMatchObject({ ms, source });
  });

  it('prefers Retry-After to every other form', () => {
    const d = headers({ 'x-ratelimit-reset-after-ms': '100', 'retry-after': '2' });
    expect(d).toMatchObject({ ms: 2000, header: { header: 'Retry-After', unit: 'seconds' } });
    expect(indicatedDelay({ headers: { 'retry-after': '2' }, json: { retryAfterMs: 5 } }, NOW)?.ms).toBe(2000);
  });

  it('reads the t= parameter of the structured RateLimit header', () => {
    expect(headers({ ratelimit: '"default";r=0;t=9' })).toMatchObject({ ms: 9000 });
  });

  it('guesses the unit of another header naming a retry or a reset', () => {
    expect(headers({ 'x-quota-reset-ms': '300' })).toMatchObject({
      ms: 300,
      source: 'X-Quota-Reset-Ms header (milliseconds)',
    });
    expect(headers({ 'x-throttle-retry': '2' })).toMatchObject({
      ms: 2000,
      source: 'X-Throttle-Retry header (seconds)',
    });
    expect(headers({ 'x-window-reset': String(EPOCH_S + 3) })).toMatchObject({ ms: 3000 });
  });

  it('never returns a negative delay, and ignores a date long past or a value that is no delay', () => {
    expect(headers({ 'x-ratelimit-reset': String(EPOCH_S - 5) })?.ms).toBe(0);
    expect(headers({ 'retry-after': new Date(NOW - 3_600_000).toUTCString() })).toBeUndefined();
    expect(headers({ 'retry-after': 'soon' })).toBeUndefined();
    expect(headers({ 'content-type': 'application/problem+json' })).toBeUndefined();
  });
});

describe('indicatedDelay: members of the problem', () => {
  it.each([
    [{ retryAfter: 2 }, 2000, 'retryAfter of the problem (seconds)'],
    [{ retryAfterMs: 750 }, 750, 'retryAfterMs of the problem (milliseconds)'],
    [{ retryAfterSeconds: '3' }, 3000, 'retryAfterSeconds of the problem (seconds)'],
    [{ parameters: { retryAfter: 4 } }, 4000, 'parameters.retryAfter of the problem (seconds)'],
    [{ parameters: { retryAfterMs: 120 } }, 120, 'parameters.retryAfterMs of the problem (milliseconds)'],
    [{ parameters: { retryAfterSeconds: 1 } }, 1000, 'parameters.retryAfterSeconds of the problem (seconds)'],
  ])('%j', (json, ms, source) => {
    expect(problem(json)).toMatchObject({ ms, source });
    // A member is no header: nothing for the `retry-delay` decision.
    expect(problem(json)?.header).toBeUndefined();
  });

  it('finds nothing in the empty parameters object the reference shows', () => {
    expect(problem({ code: 'COMMON.RATE_LIMIT.EXCEEDED', parameters: {} })).toBeUndefined();
    expect(problem('not an object')).toBeUndefined();
  });
});

describe('retryDelayOf: the header and unit, for the retry-delay decision', () => {
  it('names the header as spelt and its unit', () => {
    expect(retryDelayOf({ 'x-ratelimit-reset': '7' }, NOW)).toEqual({ header: 'X-RateLimit-Reset', unit: 'seconds' });
    expect(retryDelayOf({ 'x-ratelimit-reset': String(EPOCH_S + 7) }, NOW)).toEqual({
      header: 'X-RateLimit-Reset',
      unit: 'epoch-seconds',
    });
    expect(retryDelayOf({ 'retry-after': new Date(NOW + 1000).toUTCString() }, NOW)).toEqual({
      header: 'Retry-After',
      unit: 'http-date',
    });
    // Epoch milliseconds are no unit of the decision.
    expect(retryDelayOf({ 'x-ratelimit-reset': String(NOW + 1000) }, NOW)).toBeUndefined();
  });
});
