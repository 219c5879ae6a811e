import { call } from './http.js';

/** Counters of the mock's event loop (`loop` of `GET /__mock/stats`, mock/loop-figures.ts), as the bench reads them. */
interface LoopCounters {
  busyMs: number;
  idleMs: number;
  scavenges: number;
  scavengePauseMs: number;
  majorCollections: number;
  majorPauseMs: number;
}

/** The part of `GET /__mock/stats` the bench reads. */
interface MockFigures {
  /** Tenants in memory. */
  tenants: number;
  /** V8's used heap of the mock process, MB (not collected first: the mock runs without --expose-gc). */
  heapUsedMb: number;
  /** The loop's counters since the mock started; null from a mock that does not report them (an older build). */
  loop: LoopCounters | null;
}

interface Pauses {
  count?: unknown;
  pauseMs?: unknown;
}

interface StatsAnswer {
  tenants?: unknown;
  memory?: { heapUsed?: unknown };
  loop?: { busyMs?: unknown; idleMs?: unknown; gc?: { minor?: Pauses; major?: Pauses } };
}

function loopCounters(loop: StatsAnswer['loop']): LoopCounters | null {
  const counters = {
    busyMs: loop?.busyMs,
    idleMs: loop?.idleMs,
    scavenges: loop?.gc?.minor?.count,
    scavengePauseMs: loop?.gc?.minor?.pauseMs,
    majorCollections: loop?.gc?.major?.count,
    majorPauseMs: loop?.gc?.major?.pauseMs,
  };
  return Object.values(counters).every((v) => typeof v === 'number') ? (counters as LoopCounters) : null;
}

/** The mock's own figures, or null when `/__mock/stats` does not answer them (e.g. behind an admin key). */
export async function mockFigures(url: string): Promise<MockFigures | null> {
  try {
    const answer = await call('GET', `${url}/__mock/stats`);
    if (answer.status !== 200) return null;
    const stats = answer.json<StatsAnswer>();
    const heapUsed = stats.memory?.heapUsed;
    if (typeof stats.tenants !== 'number' || typeof heapUsed !== 'number') return null;
    return { tenants: stats.tenants, heapUsedMb: heapUsed / 1024 / 1024, loop: loopCounters(stats.loop) };
  } catch {
    return null;
  }
}

/** How the mock's loop fared between two reads: the share of the time it was busy, and its collections' pauses. */
interface LoopInterval {
  busyShare: number;
  scavengesPerS: number;
  scavengeMeanMs: number | null;
  majorPauseMs: number;
}

export function loopInterval(
  from: LoopCounters | null | undefined,
  to: LoopCounters | null | undefined,
): LoopInterval | null {
  if (!from || !to) return null;
  const busy = to.busyMs - from.busyMs;
  const elapsed = busy + (to.idleMs - from.idleMs);
  if (elapsed <= 0) return null;
  const scavenges = to.scavenges - from.scavenges;
  return {
    busyShare: busy / elapsed,
    scavengesPerS: (scavenges * 1000) / elapsed,
    scavengeMeanMs: scavenges > 0 ? (to.scavengePauseMs - from.scavengePauseMs) / scavenges : null,
    majorPauseMs: to.majorPauseMs - from.majorPauseMs,
  };
}
