/**
 * An admission policy for caches: a key is worth keeping only once it was asked for before, recently (the
 * "doorkeeper" of TinyLFU, Einziger et al. 2017). Inferred: the reference says nothing of caching. Why: a list
 * queried with filters that never repeat (bench list-100k-varied) filled the caches with values never read again,
 * and those long-lived values, dropped later, are what grew the mock's memory (V8 promotes them to its old space,
 * their typed arrays fragment malloc's heap); a value refused at its first request dies young instead. A filter that
 * repeats (paging through a list, a client polling, the bench `list` cycling 10 filters) is kept from its second
 * request on.
 */
export interface Admission<K> {
  /** Whether a value under `key` (just computed on a miss) should be kept; notes the request either way. */
  admit(key: K): boolean;
}

/** Bits per remembered key (inferred: with 4 probes, about 1 in 400 keys never seen is taken for one seen). */
const BITS_PER_KEY = 16;
const PROBES = 4;

/**
 * Remembers the keys of the last `window` to `2 * window` misses, approximately, in fixed memory (4 bytes per key of
 * the window, allocated on first use) and without keeping the keys: two Bloom filters, the current generation and
 * the one before; once the current one has taken `window` new keys it becomes the previous one, and the oldest is
 * cleared for reuse. A false positive admits a key seen once (what every key got before this policy), never the
 * opposite: a key asked for twice within the window is always admitted.
 */
export class Doorkeeper implements Admission<string> {
  private current: Uint32Array | null = null;
  private previous: Uint32Array | null = null;
  private added = 0;
  private readonly mask: number;

  constructor(readonly window: number) {
    if (!Number.isInteger(window) || window < 1) throw new RangeError('a doorkeeper window must be a positive integer');
    // A power of two of bits, at least 32 (one word), so a probe is a mask.
    let bits = 32;
    while (bits < window * BITS_PER_KEY) bits *= 2;
    this.mask = bits - 1;
  }

  admit(key: string): boolean {
    if (this.current === null || this.previous === null) {
      this.current = new Uint32Array((this.mask + 1) / 32);
      this.previous = new Uint32Array((this.mask + 1) / 32);
    }
    const [h1, h2] = hashes(key);
    if (this.holds(this.current, h1, h2)) return true;
    if (this.holds(this.previous, h1, h2)) {
      // Seen in the older generation: remembered in the current one too, so a key asked for steadily stays known.
      this.mark(h1, h2);
      return true;
    }
    this.mark(h1, h2);
    return false;
  }

  private holds(bits: Uint32Array, h1: number, h2: number): boolean {
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      if ((bits[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }

  private mark(h1: number, h2: number): void {
    let bits = this.current!;
    if (this.added >= this.window) {
      bits = this.previous!;
      bits.fill(0);
      this.previous = this.current;
      this.current = bits;
      this.added = 0;
    }
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      const word = bit >>> 5;
      bits[word] = bits[word]! | (1 << (bit & 31));
    }
    this.added++;
  }
}

/**
 * Two 32-bit hashes of a text in one pass (FNV-1a and a multiplicative hash of the UTF-16 code units), the second
 * odd, for double hashing: probe i is h1 + i * h2.
 */
function hashes(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  return [a >>> 0, (b | 1) >>> 0];
}
