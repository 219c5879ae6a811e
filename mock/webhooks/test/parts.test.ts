import { describe, expect, it } from 'vitest';
import { ExcerptHandler } from '../excerpt-handler.js';
import { KeyedSemaphore, Semaphore } from '../semaphore.js';

/** Characters of a response body an attempt record keeps. */
const EXCERPT_CHARS = 1024;

/** The excerpt an attempt record keeps of a 200 answered with `body` in one chunk. */
function excerptOf(body: Buffer): string | null {
  let kept: string | null = null;
  const handler = new ExcerptHandler(
    (_errorKind, _status, excerpt) => {
      kept = excerpt;
    },
    () => 'ConnectionError',
  );
  const controller = { abort: () => undefined } as never;
  handler.onRequestStart(controller);
  handler.onResponseStart(controller, 200);
  handler.onResponseData(controller, body);
  handler.onResponseEnd();
  return kept;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A task that runs until released, recording how many run at once. */
function gate() {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release: () => release() };
}

describe('Semaphore', () => {
  it('runs at most `limit` tasks, the rest in FIFO order, and hands slots over without barging', async () => {
    const s = new Semaphore(2);
    const order: number[] = [];
    const gates = [gate(), gate(), gate(), gate()];
    const runs = gates.map((g, i) =>
      s.run(async () => {
        order.push(i);
        await g.promise;
      }),
    );
    await tick();
    expect(order).toEqual([0, 1]);
    expect([s.inFlight, s.queued]).toEqual([2, 2]);
    gates[1]!.release();
    await tick();
    // A newcomer arriving now waits behind the queue.
    const late = s.run(async () => void order.push(9));
    await tick();
    expect(order).toEqual([0, 1, 2]);
    for (const g of gates) g.release();
    await Promise.all([...runs, late]);
    expect(order).toEqual([0, 1, 2, 3, 9]);
    expect(s.idle).toBe(true);
  });

  it('releases the slot when a task throws', async () => {
    const s = new Semaphore(1);
    await expect(s.run(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(s.idle).toBe(true);
    expect(await s.run(async () => 7)).toBe(7);
  });

  it('refuses a limit below 1', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});

describe('KeyedSemaphore', () => {
  it('bounds each key and the total; a key waiting for its own slot holds no global slot', async () => {
    const keyed = new KeyedSemaphore(new Semaphore(3), 1);
    const running = new Map<string, number>();
    let total = 0;
    let maxTotal = 0;
    const gates: { key: string; g: ReturnType<typeof gate> }[] = [];
    const task = (key: string) => {
      const g = gate();
      gates.push({ key, g });
      return keyed.run(key, async () => {
        running.set(key, (running.get(key) ?? 0) + 1);
        total++;
        maxTotal = Math.max(maxTotal, total);
        expect(running.get(key)).toBe(1);
        await g.promise;
        running.set(key, (running.get(key) ?? 0) - 1);
        total--;
      });
    };
    // Five tasks for a "hanging" key and one each for two others: the others start at once.
    const runs = [task('slow'), task('slow'), task('slow'), task('slow'), task('slow'), task('a'), task('b')];
    await tick();
    expect(total).toBe(3);
    expect([running.get('slow'), running.get('a'), running.get('b')]).toEqual([1, 1, 1]);
    for (const { g } of gates) g.release();
    await Promise.all(runs);
    expect(maxTotal).toBe(3);
    expect(keyed.activeKeys).toBe(0);
  });
});

describe('response excerpts', () => {
  it('keeps at most 1024 characters and never half a surrogate pair', () => {
    expect(excerptOf(Buffer.from('short'))).toBe('short');
    expect(excerptOf(Buffer.from('a'.repeat(5000)))).toHaveLength(EXCERPT_CHARS);
    const emoji = `${'a'.repeat(EXCERPT_CHARS - 1)}🍮tail`;
    const cut = excerptOf(Buffer.from(emoji, 'utf8'));
    expect(cut).toBe('a'.repeat(EXCERPT_CHARS - 1));
    // Bytes cut in the middle of a character decode to a replacement character, not an exception.
    expect(excerptOf(Buffer.from('é', 'utf8').subarray(0, 1))).toBe('\ufffd');
  });
});
