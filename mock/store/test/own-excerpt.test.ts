import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ownExcerpt } from '../own-excerpt.js';

/**
 * Whether an excerpt is a string of its own cannot be asked of V8 directly; what it costs can. The garbage collector is
 * exposed at run time (`--expose-gc` set through node:v8, the function read from a fresh context), so the heap is
 * measured after a full collection: the excerpts of 20 strings of 2 MB must not keep the 40 MB alive. The control,
 * `slice`, shows that the measure sees a view that does.
 */
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function retainedMb(excerpt: (text: string) => string): number {
  const kept: string[] = [];
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < 20; i++) kept.push(excerpt(`${i}:`.padEnd(2_000_000, `body ${i} `)));
  gc();
  const retained = (process.memoryUsage().heapUsed - before) / 1e6;
  expect(kept.every((k) => k.length === 4096)).toBe(true);
  return retained;
}

describe('ownExcerpt', () => {
  it('keeps only its own characters alive, where a slice keeps the whole parent', () => {
    expect(retainedMb((text) => text.slice(0, 4096))).toBeGreaterThan(30);
    expect(retainedMb((text) => ownExcerpt(text, 4096))).toBeLessThan(10);
  });

  it('is the first characters of the text, a pair cut in two at the end as U+FFFD', () => {
    expect(ownExcerpt('abcdef', 3)).toBe('abc');
    expect(ownExcerpt('short', 4096)).toBe('short');
    expect(ownExcerpt('ab\u{1F600}', 3)).toBe('ab\uFFFD');
  });
});
