import type { Settings } from '../config.js';
import { runLoad, type LoadRun, type RequestPlan } from '../load.js';
import type { LoadTargetResult } from '../results.js';
import { median, ratio, round } from '../stats.js';
import type { Target, TargetName } from '../targets/index.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** The same requests against each target, interleaved (A B C, A B C...): a warm-up, then the measured rounds. */
export async function compareTargets(
  targets: readonly Target[],
  plans: Partial<Record<TargetName, RequestPlan>> & { default: RequestPlan },
  settings: Settings,
  log: (message: string) => void,
  durationS = settings.durationS,
): Promise<Partial<Record<TargetName, LoadTargetResult>>> {
  const options = (seconds: number) => ({
    connections: settings.connections,
    durationS: seconds,
    maxRequests: settings.maxRequests,
  });
  const planOf = (t: Target) => plans[t.name] ?? plans.default;
  if (settings.warmupS > 0) {
    for (const t of targets) {
      await runLoad(t.url, planOf(t), options(settings.warmupS));
      await sleep(100);
    }
  }
  const runs = new Map<TargetName, LoadRun[]>();
  for (let r = 0; r < settings.rounds; r++) {
    for (const t of targets) {
      const run = await runLoad(t.url, planOf(t), options(durationS));
      log(
        `    round ${r + 1}/${settings.rounds} ${t.name.padEnd(5)} ${run.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${fmt(run.p50Ms)} ms  p99 ${fmt(run.p99Ms)} ms  errors ${run.errors}  unexpected ${run.unexpected}`,
      );
      const list = runs.get(t.name) ?? [];
      list.push(run);
      runs.set(t.name, list);
      await sleep(100);
    }
  }
  const out: Partial<Record<TargetName, LoadTargetResult>> = {};
  for (const [name, list] of runs) out[name] = aggregate(list);
  return out;
}

function fmt(v: number | null): string {
  return v === null ? '-' : v.toFixed(2);
}

/** Medians over rounds; counts summed. */
export function aggregate(list: readonly LoadRun[]): LoadTargetResult {
  const statusCounts: Record<string, number> = {};
  for (const run of list)
    for (const [code, n] of Object.entries(run.statusCounts)) statusCounts[code] = (statusCounts[code] ?? 0) + n;
  const med = (pick: (r: LoadRun) => number | null) =>
    round(median(list.map(pick).filter((v): v is number => v !== null)), 3);
  return {
    reqPerSec: round(median(list.map((r) => r.reqPerSec)), 1),
    p50Ms: med((r) => r.p50Ms),
    p90Ms: med((r) => r.p90Ms),
    p99Ms: med((r) => r.p99Ms),
    meanMs: med((r) => r.meanMs),
    responses: list.reduce((s, r) => s + r.responses, 0),
    errors: list.reduce((s, r) => s + r.errors, 0),
    unexpected: list.reduce((s, r) => s + r.unexpected, 0),
    statusCounts,
    rounds: list.map((r) => ({
      ...r,
      reqPerSec: round(r.reqPerSec, 1) ?? 0,
      p50Ms: round(r.p50Ms, 3),
      p90Ms: round(r.p90Ms, 3),
      p99Ms: round(r.p99Ms, 3),
      meanMs: round(r.meanMs, 3),
      maxMs: round(r.maxMs, 3),
      durationS: round(r.durationS, 3) ?? 0,
    })),
  };
}

/** The flat headline numbers of a load scenario, with the ratios ours/Prism and ours/bare. */
export function loadMetrics(targets: Partial<Record<TargetName, LoadTargetResult>>): Record<string, number | null> {
  const metrics: Record<string, number | null> = {};
  for (const [name, t] of Object.entries(targets)) {
    metrics[`${name}.reqPerSec`] = t.reqPerSec;
    metrics[`${name}.p50Ms`] = t.p50Ms;
    metrics[`${name}.p99Ms`] = t.p99Ms;
    metrics[`${name}.errors`] = t.errors;
    metrics[`${name}.unexpected`] = t.unexpected;
  }
  if (targets.ours && targets.prism)
    metrics.oursVsPrism = round(ratio(targets.ours.reqPerSec, targets.prism.reqPerSec), 2);
  if (targets.ours && targets.bare)
    metrics.oursVsBare = round(ratio(targets.ours.reqPerSec, targets.bare.reqPerSec), 3);
  return metrics;
}
