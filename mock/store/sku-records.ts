import type { CompactSkus, SkuRecord } from '../../fixtures/seed/index.js';

/**
 * The SKU records of a tenant by reference, read and written like a `Map`, over its compact seeded catalog.
 *
 * A seeded SKU nobody wrote has no record object: `get` builds a fresh plain one from the catalog (its list item and
 * the parts kept as numbers, ../../fixtures/seed/compact-skus.ts), so a caller may change what it got without
 * touching the tenant. A written record is kept whole and wins from then on: whatever a write changes was built
 * first, from the same seed. Iteration follows a `Map` filled with the seeded records in catalog order: a replaced
 * record keeps its place, a new or re-added one comes last. Inferred (memory of a 100,000-SKU tenant).
 */
export class SkuRecords implements Iterable<[string, SkuRecord]> {
  /** Written records of seeded SKUs still in their catalog place, by reference. */
  private readonly replaced = new Map<string, SkuRecord>();
  /** References of seeded SKUs that were removed (a later write of one is an `added` record). */
  private readonly removed = new Set<string>();
  /** Records not in a catalog place: new references, and seeded ones written again after their removal. */
  private readonly added = new Map<string, SkuRecord>();

  constructor(private readonly seeded: CompactSkus) {}

  get size(): number {
    return this.seeded.length - this.removed.size + this.added.size;
  }

  get(reference: string): SkuRecord | undefined {
    const added = this.added.get(reference);
    if (added) return added;
    const index = this.placeOf(reference);
    if (index < 0) return undefined;
    return this.replaced.get(reference) ?? this.seeded.record(index);
  }

  has(reference: string): boolean {
    return this.added.has(reference) || this.placeOf(reference) >= 0;
  }

  set(reference: string, record: SkuRecord): this {
    if (!this.added.has(reference) && this.placeOf(reference) >= 0) this.replaced.set(reference, record);
    else this.added.set(reference, record);
    return this;
  }

  delete(reference: string): boolean {
    if (this.added.delete(reference)) return true;
    if (this.placeOf(reference) < 0) return false;
    this.replaced.delete(reference);
    this.removed.add(reference);
    return true;
  }

  *entries(): IterableIterator<[string, SkuRecord]> {
    const { items } = this.seeded;
    for (let i = 0; i < items.length; i++) {
      const reference = items[i]!.reference;
      if (this.removed.size > 0 && this.removed.has(reference)) continue;
      yield [reference, this.replaced.get(reference) ?? this.seeded.record(i)];
    }
    yield* this.added.entries();
  }

  *keys(): IterableIterator<string> {
    for (const [reference] of this.entries()) yield reference;
  }

  *values(): IterableIterator<SkuRecord> {
    for (const [, record] of this.entries()) yield record;
  }

  [Symbol.iterator](): IterableIterator<[string, SkuRecord]> {
    return this.entries();
  }

  /** The catalog index of a seeded SKU still in its place, or -1. */
  private placeOf(reference: string): number {
    const index = this.seeded.indexOf(reference);
    return index >= 0 && this.removed.has(reference) ? -1 : index;
  }
}
