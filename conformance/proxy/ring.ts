/**
 * The last `capacity` items of an unbounded stream, kept in full (a ring buffer): a long proxy run keeps its recent
 * exchanges for the report without its memory growing with the run (inferred: the proxy may run for days).
 */
export class ExchangeRing<T> {
  private readonly slots: (T | undefined)[];
  /** Where the next push goes. */
  private next = 0;
  private pushed = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`an ExchangeRing needs a whole capacity of at least 1, got ${String(capacity)}`);
    this.slots = new Array<T | undefined>(capacity);
  }

  /** Keeps `item`, dropping the oldest one when full. O(1). */
  push(item: T): void {
    this.slots[this.next] = item;
    this.next = this.next + 1 === this.capacity ? 0 : this.next + 1;
    this.pushed++;
  }

  /** How many items are kept now (at most `capacity`). */
  get size(): number {
    return Math.min(this.pushed, this.capacity);
  }

  /** How many items were ever pushed. */
  get total(): number {
    return this.pushed;
  }

  /** How many items were dropped to make room. */
  get dropped(): number {
    return this.pushed - this.size;
  }

  /** The kept items, oldest first (a copy). */
  items(): T[] {
    const size = this.size;
    const out = new Array<T>(size);
    const start = size < this.capacity ? 0 : this.next;
    for (let i = 0; i < size; i++) out[i] = this.slots[(start + i) % this.capacity] as T;
    return out;
  }
}
