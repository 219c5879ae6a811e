import { LRUCache } from 'lru-cache';

/**
 * A least-recently-used cache bounded to `entries` entries that allocates as it fills. For the caches the mock keeps
 * as a safety bound, far larger than they usually hold (failed key attempts per source, refused tokens, evicted
 * tenants with writes): lru-cache's `max` allocates storage for all of them up front ("At initial
 * object creation, storage is allocated for `max` items", its README, "Storage Bounds Safety"), ~1 ms and up to a
 * few MB per cache for every mock built, most never used. `maxSize` with a size of 1 per entry is the same bound
 * without the pre-allocation. `dispose` is called with each value that leaves the cache (evicted, deleted or cleared).
 */
export function boundedCache<K extends {}, V extends {}>(
  entries: number,
  dispose?: (value: V) => void,
): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1, ...(dispose ? { dispose } : {}) });
}

/**
 * A least-recently-used cache keyed by text a caller chose (tokens), bounded by `chars`: the characters of its keys
 * plus `overhead` per entry (the entry's own cost). An entry count alone let a caller pin ~16 KB per entry (a token
 * as long as the header limit allows); this bound holds whatever the keys' length. A key longer than the whole bound
 * is not kept (lru-cache refuses an entry larger than `maxSize`): the caller answers without remembering.
 */
export function textKeyedCache<V extends {}>(chars: number, overhead = 64): LRUCache<string, V> {
  return new LRUCache<string, V>({ maxSize: chars, sizeCalculation: (_value, key) => key.length + overhead });
}
