import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IdSequence } from '../ids.js';

/**
 * What an id costs the heap is measured as own-excerpt.test.ts measures excerpts: after a full collection, with the
 * collector exposed at run time. 100,000 ids held alive (a tenant's two notification bounds at their defaults, twice
 * over) must cost about what their characters do; the control, the same ids made by a template literal, shows that
 * the measure sees the pieces V8 links such a string from.
 */
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const TAG = 'k3v9xq2mh7a';
const COUNT = 100_000;

function retainedBytesPerId(make: (n: number) => string): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: string[] = new Array(COUNT);
  for (let n = 0; n < COUNT; n++) kept[n] = make(n);
  gc();
  const perId = (process.memoryUsage().heapUsed - before) / COUNT;
  expect(new Set(kept).size).toBe(COUNT);
  return perId;
}

describe('IdSequence', () => {
  it('numbers each kind on its own, as `<prefix>_<tag>_<six digits>`', () => {
    const ids = new IdSequence(TAG);
    expect(ids.next('ntf')).toBe(`ntf_${TAG}_000001`);
    expect(ids.next('ntf')).toBe(`ntf_${TAG}_000002`);
    expect(ids.next('evt')).toBe(`evt_${TAG}_000001`);
    expect(ids.snapshot()).toEqual({ ntf: 2, evt: 1 });
  });

  it('goes on from restored counters, past six digits when it must', () => {
    const ids = new IdSequence(TAG);
    ids.restore({ ntf: 999_999 });
    expect(ids.next('ntf')).toBe(`ntf_${TAG}_1000000`);
    expect(ids.next('sub')).toBe(`sub_${TAG}_000001`);
  });

  it('makes each id one flat string, where a template literal links pieces that stay alive with it', () => {
    const template = retainedBytesPerId((n) => `${'ntf'}_${TAG}_${String(n + 1).padStart(6, '0')}`);
    const ids = new IdSequence(TAG);
    const sequence = retainedBytesPerId(() => ids.next('ntf'));
    // 22 characters: a flat one-byte string is 40 bytes, plus the array slot holding it (8).
    expect(sequence).toBeLessThan(64);
    expect(template).toBeGreaterThan(sequence * 1.5);
  });
});
