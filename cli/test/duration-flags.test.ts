import { describe, expect, it } from 'vitest';
import { parseLatency, parseRetrySchedule } from '../../mock/options/grammars.js';
import { parseRate } from '../../mock/rate-limit.js';
import { duration } from '../options.js';

describe('every duration flag reads the one grammar, and still takes what it took', () => {
  it('--latency: ranges and single values, ms when bare', () => {
    const value = (text: string) => {
      const r = parseLatency(text);
      return r.ok ? r.value : r.error;
    };
    expect(value('50-200ms')).toEqual({ min: 50, max: 200 });
    expect(value('50 - 200')).toEqual({ min: 50, max: 200 });
    expect(value('100ms')).toEqual({ min: 100, max: 100 });
    expect(value('1s')).toEqual({ min: 1000, max: 1000 });
    expect(value('0.2-1s')).toEqual({ min: 200, max: 1000 });
    expect(value('500ms-2s')).toEqual({ min: 500, max: 2000 });
    expect(value('1m')).toEqual({ min: 60_000, max: 60_000 });
    expect(value('off')).toBeNull();
    expect(value('0')).toBeNull();
    expect(value('200-50ms')).toMatch(/maximum is below the minimum/);
    expect(value('1-2-3')).toMatch(/invalid latency/);
    expect(value('fast')).toMatch(/invalid latency "fast": use e.g. 50-200ms.*a bare number is milliseconds/);
  });

  it('--retry-schedule: seconds when bare, every unit up to days', () => {
    expect(parseRetrySchedule('0,5s,5m,30m,2h,1d,500ms,10')).toEqual({
      ok: true,
      value: [0, 5, 300, 1800, 7200, 86_400, 0.5, 10],
    });
    expect(parseRetrySchedule('5s,soon')).toMatchObject({ ok: false });
    expect(parseRetrySchedule('')).toMatchObject({ ok: false });
  });

  it('--rate-limit: the window is a duration (a bare unit is one of it)', () => {
    const windowMs = (text: string) => {
      const r = parseRate(text);
      return r.ok ? r.rate?.windowMs : r.error;
    };
    expect(windowMs('300/1s')).toBe(1000);
    expect(windowMs('300/s')).toBe(1000);
    expect(windowMs('100/500ms')).toBe(500);
    expect(windowMs('1000/1m')).toBe(60_000);
    expect(windowMs('1000 / 2h')).toBe(7_200_000);
    expect(windowMs('10000/1d')).toBe(86_400_000);
    expect(windowMs('5/2')).toBe(2000);
    expect(windowMs('off')).toBeUndefined();
    expect(windowMs('5/0s')).toMatch(/must be positive/);
    expect(windowMs('5/-1s')).toMatch(/use N\/window .*the window is a number with an optional unit/);
    expect(windowMs('five/1s')).toMatch(/use N\/window/);
  });

  it('the CLI flags (--delivery-timeout, --timeout, --expires-in, ...): whole units within bounds', () => {
    const ms = duration({ unitless: 'ms', into: 'ms', min: 1, max: 600_000 });
    expect(['500', '500ms', '10s', '10m'].map(ms)).toEqual([500, 500, 10_000, 600_000]);
    expect(() => ms('11m')).toThrow('expected a duration from 1ms to 10m');
    expect(() => ms('0')).toThrow('expected a duration from 1ms to 10m');
    expect(() => ms('-5')).toThrow('is not a duration');
    const seconds = duration({ unitless: 's', into: 's', min: -31_536_000, max: 31_536_000, negative: true });
    expect(['-60', '-1m', '3600', '1h', '1d', '1500ms'].map(seconds)).toEqual([-60, -60, 3600, 3600, 86_400, 2]);
  });
});
