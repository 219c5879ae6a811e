import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../duration.js';

describe('the duration grammar', () => {
  it.each([
    ['500', 'ms', 500],
    ['500', 's', 500_000],
    ['500ms', 's', 500],
    ['0.5s', 'ms', 500],
    ['.5s', 'ms', 500],
    ['10s', 'ms', 10_000],
    ['5m', 'ms', 300_000],
    ['2h', 'ms', 7_200_000],
    ['1d', 'ms', 86_400_000],
    [' 10 S ', 'ms', 10_000],
    ['0', 's', 0],
  ] as const)('reads %j (bare numbers in %s) as %d ms', (text, unitless, ms) => {
    expect(parseDuration(text, { unitless })).toMatchObject({ ok: true, ms });
  });

  it.each(['', 'ms', '5x', '5 mins', '1e3', '1,5s', '--5', '5s5'])('refuses %j', (text) => {
    const parsed = parseDuration(text, { unitless: 's' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain('is not a duration');
  });

  it('takes a sign only where a negative duration is allowed', () => {
    expect(parseDuration('-60', { unitless: 's' }).ok).toBe(false);
    expect(parseDuration('-60', { unitless: 's', negative: true })).toMatchObject({ ok: true, ms: -60_000 });
    expect(parseDuration('-1m', { unitless: 's', negative: true })).toMatchObject({ ok: true, ms: -60_000 });
  });

  it('writes a duration back in its largest whole unit', () => {
    expect([1, 1500, 90_000, 3_600_000, 86_400_000, -60_000].map(formatDuration)).toEqual([
      '1ms',
      '1500ms',
      '90s',
      '1h',
      '1d',
      '-1m',
    ]);
  });
});
