import { OPERATIONS } from '../../index.js';
import { rssMb } from '../children.js';
import { call } from '../http.js';
import { runLoad } from '../load.js';
import { mockFigures } from '../mock-stats.js';
import { adminToken, type VariedSeries, variedListPath, variedListPlan, variedSeries } from '../requests.js';
import { round } from '../stats.js';
import { startOurs } from '../targets/index.js';
import { aggregate, loadMetrics } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';

/** The sortable fields of `GET /v1/items/skus`, from the contract (`x-sortable`). */
function skuSortable(): string[] {
  const fields = OPERATIONS.find((op) => op.operationId === 'listSkus')?.list?.fields ?? [];
  const sortable = fields.filter((f) => f.sortable).map((f) => f.name);
  if (sortable.length === 0) throw new Error('the contract names no sortable field of listSkus');
  return sortable;
}

/** Samples `pid`'s RSS every second until stopped; the highest sample (MB, null when unreadable). */
function rssPeak(pid: number): { stop(): number | null } {
  let peak: number | null = null;
  const sample = () => {
    const v = rssMb(pid);
    if (v !== null) peak = Math.max(peak ?? 0, v);
  };
  const timer = setInterval(sample, 1000);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** One page of 1,000 SKU names of the tenant (the longest page): the vocabulary of the name fragments. */
async function someNames(url: string, token: string): Promise<string[]> {
  const answer = await call('GET', `${url}/v1/items/skus?pageSize=1000`, { token, timeoutMs: 180_000 });
  if (answer.status !== 200)
    throw new Error(`GET /v1/items/skus?pageSize=1000 answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return (answer.json<{ results?: { name?: unknown }[] }>().results ?? [])
    .map((item) => item.name)
    .filter((name): name is string => typeof name === 'string');
}

const minus = (a: number | null, b: number | null) => (a !== null && b !== null ? a - b : null);

export const listVariedScenario: ScenarioDef = {
  name: 'list-100k-varied',
  description:
    'GET /v1/items/skus over 100,000 SKUs, a filter (name fragment && totalStock threshold) and sort never repeated: latency of uncached answers, RSS before/after (ours only)',
  async run(ctx): Promise<Outcome> {
    const { skus, loadS, connections } = ctx.settings.varied;
    if (skus === null && !ctx.scenariosNamed)
      return { skip: `not run in ${ctx.settings.mode} mode (name it with --scenarios list-100k-varied)` };
    const size = skus ?? 100_000;
    const token = await adminToken();
    const ours = await startOurs({ skus: size, profileDir: ctx.profileDir, readyTimeoutMs: 180_000 });
    try {
      const series: VariedSeries = variedSeries(await someNames(ours.url, token), skuSortable());
      // The last path of the series (never reached by the load) proves the filter syntax before the clock runs.
      const probe = variedListPath(series, series.length - 1);
      const answer = await call('GET', ours.url + probe, { token, timeoutMs: 180_000 });
      if (answer.status !== 200)
        throw new Error(`GET ${probe} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      const rssBefore = rssMb(ours.child.pid);
      const before = await mockFigures(ours.url);
      const peak = rssPeak(ours.child.pid);
      const load = await runLoad(ours.url, variedListPlan(token, series), {
        connections,
        durationS: loadS,
        maxRequests: Math.min(ctx.settings.maxRequests, series.length - 1),
      }).finally(() => peak.stop());
      const rssPeakMb = peak.stop();
      const rssAfter = rssMb(ours.child.pid);
      const after = await mockFigures(ours.url);
      const targets = { ours: aggregate([load]) };
      ctx.log(
        `    ${load.responses} never-repeated filters in ${load.durationS.toFixed(1)} s: ${load.reqPerSec.toFixed(0)} req/s, p50 ${load.p50Ms?.toFixed(2)} ms, p99 ${load.p99Ms?.toFixed(2)} ms; RSS ${rssBefore?.toFixed(1)} MB -> ${rssAfter?.toFixed(1)} MB (peak ${rssPeakMb?.toFixed(1)} MB)`,
      );
      return {
        metrics: {
          ...loadMetrics(targets),
          skus: size,
          loadS,
          connections,
          'ours.maxMs': round(load.maxMs, 3),
          'ours.readyMs': round(ours.readyMs, 0),
          rssBeforeMb: round(rssBefore, 1),
          rssAfterMb: round(rssAfter, 1),
          rssGrowthMb: round(minus(rssAfter, rssBefore), 1),
          rssPeakMb: round(rssPeakMb, 1),
          heapBeforeMb: round(before?.heapUsedMb, 1),
          heapAfterMb: round(after?.heapUsedMb, 1),
        },
        targets,
        details: {
          fragments: series.fragments.length,
          thresholds: series.thresholds,
          sortable: series.sortable,
          firstPath: variedListPath(series, 0),
          probe,
        },
        notes: [
          `Each request's filter is name[Contains]<one of the ${series.fragments.length} 3-letter fragments of 1,000 seeded names> AND totalStock[Gt]<0...${series.thresholds - 1}>, both from a counter (no pair repeats below ${series.length.toLocaleString('en-US')} requests), sorted by one of the ${series.sortable.length} sortable fields in turn, either direction: every answer is an uncached filter + sort.`,
          `${connections} connection(s) for ${loadS} s (with more, each latency would include a queue of other queries); RSS before: after seeding and one probe; peak sampled every second; heap from GET /__mock/stats (heapUsed, no forced collection).`,
        ],
      };
    } finally {
      await ours.stop();
    }
  },
};
