import { describe, expect, it } from 'vitest';
import { defaultOptions, MOCK_OPTIONS, type MockOptionName } from '../../options.js';
import { formatLatency, formatRate, formatRetrySchedule } from '../grammars.js';
import type { MockOption } from '../kinds.js';

const ENTRIES = Object.entries(MOCK_OPTIONS) as [MockOptionName, MockOption][];

describe('the table of mock options', () => {
  it('names each variable after its flag: OPSAPI_ and the long name in upper snake case', () => {
    for (const [, spec] of ENTRIES) {
      const long = (spec.flag.split(' ')[0] ?? '').replace(/^--/, '');
      expect(spec.env, spec.flag).toBe(long.toUpperCase().replaceAll('-', '_'));
    }
  });

  it('declares `--x <value>` for a value (`--x [value]` for a list that means something given alone), `--x` for a switch off by default and `--no-x` for one on by default', () => {
    for (const [name, spec] of ENTRIES) {
      const kind = spec.value;
      if (kind.kind === 'list' && kind.whenBare !== undefined)
        expect(spec.flag, name).toMatch(/^--[a-z-]+ \[[a-z|,.]+\]$/);
      else if (kind.kind !== 'switch') expect(spec.flag, name).toMatch(/^--[a-z-]+ <[a-z,.]+>$/);
      else expect(spec.flag.startsWith('--no-'), name).toBe(spec.default === true);
    }
  });

  it('keeps every default within its bounds, and in its own grammar when written back', () => {
    for (const [name, spec] of ENTRIES) {
      const kind = spec.value;
      if ((kind.kind === 'integer' || kind.kind === 'duration') && spec.default !== null) {
        expect(spec.default as number, name).toBeGreaterThanOrEqual(kind.min);
        expect(spec.default as number, name).toBeLessThanOrEqual(kind.max);
      }
      if (kind.kind === 'parsed')
        expect(kind.parse(kind.format(spec.default)), name).toEqual({ ok: true, value: spec.default });
      if (spec.startMockDefault !== undefined) expect(kind.kind, name).toBe('integer');
    }
  });

  it('is what defaultOptions() answers, with a fresh set of faults on every call', () => {
    const defaults = defaultOptions() as unknown as Record<string, unknown>;
    for (const [name, spec] of ENTRIES)
      if (spec.default === undefined) expect(name in defaults, name).toBe(false);
      else expect(defaults[name], name).toEqual(spec.default);
    expect(defaultOptions().faults).not.toBe(defaultOptions().faults);
    expect(defaultOptions().retrySchedule).toBe(MOCK_OPTIONS.retrySchedule.default);
  });

  it('writes values back in the grammars the flags read', () => {
    expect(formatRate({ limit: 300, windowMs: 1000 })).toBe('300/1s');
    expect(formatRate({ limit: 5, windowMs: 7_200_000 })).toBe('5/2h');
    expect(formatRate(null)).toBe('off');
    expect(formatLatency({ min: 50, max: 200 })).toBe('50-200ms');
    expect(formatLatency({ min: 100, max: 100 })).toBe('100ms');
    expect(formatLatency(null)).toBe('off');
    expect(formatRetrySchedule([0, 5, 300, 1800, 7200, 86_400, 0.5])).toBe('0,5s,5m,30m,2h,1d,500ms');
  });
});
