import { describe, expect, it } from 'vitest';
import { textKeyedCache } from '../bounded-cache.js';

describe('textKeyedCache (refused tokens, the tenants of signed tokens)', () => {
  it('holds at most its characters, however long the keys a caller sends', () => {
    const cache = textKeyedCache<{ seen: true }>(1_000_000, 200);
    // Tokens as long as a header allows, each new: the oldest go, the bound holds.
    for (let i = 0; i < 200; i++) cache.set(`${i}.${'x'.repeat(16_000)}`, { seen: true });
    expect(cache.calculatedSize).toBeLessThanOrEqual(1_000_000);
    expect(cache.size).toBe(Math.floor(1_000_000 / (16_000 + 4 + 200)));
    expect(cache.has(`199.${'x'.repeat(16_000)}`)).toBe(true);
    expect(cache.has(`0.${'x'.repeat(16_000)}`)).toBe(false);
  });

  it('keeps thousands of ordinary tokens, counted with their entry', () => {
    const cache = textKeyedCache<{ seen: true }>(1_000_000, 200);
    for (let i = 0; i < 10_000; i++) cache.set(`token-${String(i).padStart(294, '0')}`, { seen: true });
    expect(cache.size).toBe(Math.floor(1_000_000 / (300 + 200)));
  });

  it('does not keep a key longer than the whole bound (the caller answers without remembering)', () => {
    const cache = textKeyedCache<{ seen: true }>(1_000, 64);
    cache.set('short', { seen: true });
    cache.set('y'.repeat(2_000), { seen: true });
    expect(cache.has('y'.repeat(2_000))).toBe(false);
    expect(cache.has('short')).toBe(true);
  });
});
