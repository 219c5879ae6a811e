/** The p-th percentile (0..100) of samples, nearest rank; 0 for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

/** Per-kind counts and latencies. */
export interface KindTally {
  requests: number;
  unexpected: number;
  serverErrors: number;
  /** Requests that got no answer (timeout, connection error). */
  failures: number;
  latenciesMs: number[];
  /** Status -> count. */
  statuses: Record<string, number>;
  /** A few examples of unexpected answers, for diagnosis. */
  examples: string[];
}

export function emptyTally(): KindTally {
  return { requests: 0, unexpected: 0, serverErrors: 0, failures: 0, latenciesMs: [], statuses: {}, examples: [] };
}

/** Latency samples kept per kind at most (a reservoir: later samples replace random earlier ones). */
const MAX_SAMPLES = 20_000;

export function record(
  tally: KindTally,
  status: number | null,
  expected: readonly number[],
  latencyMs: number,
  describe: () => string,
): void {
  tally.requests++;
  const key = status === null ? 'error' : String(status);
  tally.statuses[key] = (tally.statuses[key] ?? 0) + 1;
  if (tally.latenciesMs.length < MAX_SAMPLES) tally.latenciesMs.push(latencyMs);
  else {
    const slot = Math.floor(Math.random() * tally.requests);
    if (slot < MAX_SAMPLES) tally.latenciesMs[slot] = latencyMs;
  }
  if (status === null) tally.failures++;
  if (status !== null && status >= 500) tally.serverErrors++;
  if (status === null || !expected.includes(status)) {
    tally.unexpected++;
    if (tally.examples.length < 5) tally.examples.push(describe());
  }
}
