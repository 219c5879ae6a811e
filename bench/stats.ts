/** Small statistics helpers: medians over rounds, percentiles over samples. */

/** The median of some numbers (null for none). */
export function median(values: readonly number[]): number | null {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? null) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The p-th percentile (0..100, nearest rank) of samples already sorted ascending (null for none). */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? null;
}

/** p50/p90/p99/mean/max of some samples. */
export function summarise(samples: readonly number[]): {
  p50: number | null;
  p90: number | null;
  p99: number | null;
  mean: number | null;
  max: number | null;
} {
  if (samples.length === 0) return { p50: null, p90: null, p99: null, mean: null, max: null };
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    p50: percentileSorted(sorted, 50),
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
    mean: sum / sorted.length,
    max: sorted[sorted.length - 1] ?? null,
  };
}

/** a / b when both are known and b is not 0. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined || b === 0) return null;
  return a / b;
}

/** Rounds to `digits` decimals, keeping null. */
export function round(value: number | null | undefined, digits = 2): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
