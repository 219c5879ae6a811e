import { constants, type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';

/** The pauses of one kind of garbage collection, since the figures began. */
interface PauseFigures {
  /** Collections of this kind. */
  readonly count: number;
  /** Their pauses added up, milliseconds. */
  readonly pauseMs: number;
  /** The longest of them, milliseconds. */
  readonly longestMs: number;
}

/**
 * How the process's one event loop fared, as counters since it started (`GET /__mock/stats` `loop`): what a consumer
 * takes the difference of between two reads, e.g. the share of a minute the loop was busy, or the mean scavenge pause
 * while one tenant pushed hard. Why an operator of a shared sandbox wants them (docs/DESIGN.md, "Shared sandbox"):
 * every tenant's answer waits for whatever runs on that loop, and a tenant that keeps many objects alive briefly (a
 * fan-out's notifications) lengthens the young-generation collections, during which no tenant is answered.
 */
interface LoopFigures {
  /** Milliseconds the loop ran callbacks since the process started (`performance.eventLoopUtilization`). */
  readonly busyMs: number;
  /** Milliseconds it waited for work. */
  readonly idleMs: number;
  /** Pauses of the collector since the mock began observing them (its first start in the process). */
  readonly gc: {
    /** Scavenges: collections of the young generation. */
    readonly minor: PauseFigures;
    /** Mark-compact collections of the whole heap. */
    readonly major: PauseFigures;
    /** Incremental marking steps and weak callbacks. */
    readonly other: PauseFigures;
  };
}

class PauseCounter {
  private count = 0;
  private pauseMs = 0;
  private longestMs = 0;

  add(durationMs: number): void {
    this.count++;
    this.pauseMs += durationMs;
    if (durationMs > this.longestMs) this.longestMs = durationMs;
  }

  figures(): PauseFigures {
    return { count: this.count, pauseMs: round(this.pauseMs), longestMs: round(this.longestMs) };
  }
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

const pauses = { minor: new PauseCounter(), major: new PauseCounter(), other: new PauseCounter() };
let observer: PerformanceObserver | undefined;

/** The counter of a `gc` performance entry, by its `detail.kind` (Node's perf_hooks constants). */
function counterOf(entry: PerformanceEntry): PauseCounter {
  // `detail.kind` since Node 16 (perf_hooks, "Garbage Collection ('gc') Details"); this typing of the entry lacks it.
  const kind = (entry as PerformanceEntry & { detail?: { kind?: number } | null }).detail?.kind;
  if (kind === constants.NODE_PERFORMANCE_GC_MINOR) return pauses.minor;
  if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) return pauses.major;
  return pauses.other;
}

/**
 * Begins counting the collector's pauses, once per process (later calls do nothing): the figures are the process's,
 * like its memory, whichever mock in it reads them. A `gc` observer costs one entry per collection and sets no timer,
 * so an idle mock stays idle.
 */
export function observeCollections(): void {
  if (observer) return;
  observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) counterOf(entry).add(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** The loop's figures now. */
export function loopFigures(): LoopFigures {
  const { active, idle } = performance.eventLoopUtilization();
  return {
    busyMs: Math.round(active),
    idleMs: Math.round(idle),
    gc: { minor: pauses.minor.figures(), major: pauses.major.figures(), other: pauses.other.figures() },
  };
}
