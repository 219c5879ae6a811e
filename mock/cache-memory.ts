import os from 'node:os';

/** Most a default list cache budget takes: 512 MB. */
const DEFAULT_CAP_BYTES = 512 * 1024 * 1024;

let defaultBytes: number | undefined;

/**
 * The list caches' byte budget (mock/lists/cache-budget.ts) when `--cache-mb` is not given: an eighth of the memory the
 * process may use (a container's limit when one is set, else the machine's), at most 512 MB. Inferred: the tenants'
 * worlds (`--max-tenants` of them, a few hundred KB to a few hundred MB each) are the mock's real memory, so the
 * caches, which only save recomputation, get a minor part of it; 512 MB holds the sorted orders and matches of dozens
 * of 100,000-SKU tenants, beyond which more memory buys little speed.
 */
function defaultCacheBytes(): number {
  if (defaultBytes === undefined) {
    const constrained = process.constrainedMemory?.() ?? 0;
    const total = constrained > 0 ? Math.min(constrained, os.totalmem()) : os.totalmem();
    defaultBytes = Math.min(DEFAULT_CAP_BYTES, Math.floor(total / 8));
  }
  return defaultBytes;
}

/** The budget's bytes for `--cache-mb` (null or absent: the default). */
export function cacheBytesOf(megabytes: number | null | undefined): number {
  return megabytes === null || megabytes === undefined ? defaultCacheBytes() : megabytes * 1024 * 1024;
}
