import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache bounded to `entries` entries that allocates as it fills. For the caches the mock keeps
 * as a safety bound, far larger than they usually hold (failed key attempts per source, refused tokens, evicted
 * tenants with writes): lru-cache's `max` allocates storage for all of them up front ("At initial
 * object creation, storage is allocated for `max` items", its README, "Storage Bounds Safety"), ~1 ms and up to a
 * few MB per cache for every mock built, most never used. `maxSize` with a size of 1 per entry is the same bound
 * without the pre-allocation.
 */
export function boundedCache<K extends {}, V extends {}>(entries: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
