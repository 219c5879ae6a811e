/**
 * A bounded set of recently seen keys (event identifiers): when full, the least recently seen key is forgotten
 * first. `has` counts as a use, so a key that keeps coming back stays.
 */
export class RecentSet {
  private readonly keys = new Map<string, true>();

  constructor(readonly capacity = 10_000) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }

  /** Whether the key was seen (and still remembered); marks it most recently used. */
  has(key: string): boolean {
    if (!this.keys.has(key)) return false;
    this.keys.delete(key);
    this.keys.set(key, true);
    return true;
  }

  /** Remembers a key, forgetting the least recently used one when the set is full. */
  add(key: string): void {
    this.keys.delete(key);
    this.keys.set(key, true);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.keys().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
  }

  get size(): number {
    return this.keys.size;
  }
}
