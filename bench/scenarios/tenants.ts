import { cpuSeconds, rssMb } from '../children.js';
import { call } from '../http.js';
import { mockFigures } from '../mock-stats.js';
import { adminToken, NAME_FRAGMENTS, tenantsListPlan } from '../requests.js';
import { round, summarise } from '../stats.js';
import { startOurs } from '../targets/index.js';
import { compareTargets, loadMetrics } from './compare.js';
import type { ScenarioDef } from './types.js';

/** What each new tenant asks first: a plain page of its catalog. */
const FIRST_READ = '/v1/items/skus?pageSize=25';

/** The bench's org codes (`bench-00000`...): valid org codes, none of them the default tenant. */
const orgOf = (i: number) => `bench-${String(i).padStart(5, '0')}`;

/**
 * Each token's first read, `concurrency` at a time; the latency of each in ms (client side, request to last byte).
 * Throws on the first answer that is not 200 (the other workers stop taking reads).
 */
async function firstReads(url: string, tokens: readonly string[], concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < tokens.length) {
      const token = tokens[next++];
      const t = performance.now();
      const answer = await call('GET', url + FIRST_READ, token ? { token } : {});
      times.push(performance.now() - t);
      if (answer.status !== 200) {
        failed = true;
        throw new Error(`a new tenant's ${FIRST_READ} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tokens.length)) }, worker));
  return times;
}

const minus = (a: number | null, b: number | null) => (a !== null && b !== null ? a - b : null);

export const tenantsScenario: ScenarioDef = {
  name: 'tenants-10k',
  description:
    'one mock, 10,000 new tenants (--quick: 50) each reading a page once, then the list requests spread over them round-robin: RSS, heap, first answer per tenant',
  async run(ctx) {
    const { count, concurrency } = ctx.settings.tenants;
    // Minted offline with the mock's default secret before the mock starts: minting is not what is measured.
    const tokens = await Promise.all(Array.from({ length: count }, (_, i) => adminToken(orgOf(i))));
    const maxTenants = Math.max(1000, 2 * count);
    const ours = await startOurs({
      flags: ['--rate-limit', 'off', '--max-tenants', String(maxTenants)],
      profileDir: ctx.profileDir,
    });
    try {
      const rssStart = rssMb(ours.child.pid);
      const cpuStart = cpuSeconds(ours.child.pid);
      const t0 = performance.now();
      const times = await firstReads(ours.url, tokens, concurrency);
      const readsS = (performance.now() - t0) / 1000;
      const cpuReads = minus(cpuSeconds(ours.child.pid), cpuStart);
      const rssAfterReads = rssMb(ours.child.pid);
      const afterReads = await mockFigures(ours.url);
      const first = summarise(times);
      ctx.log(
        `    ${count} first reads in ${readsS.toFixed(1)} s: p50 ${first.p50?.toFixed(2)} ms, p99 ${first.p99?.toFixed(2)} ms; RSS ${rssStart?.toFixed(1)} MB -> ${rssAfterReads?.toFixed(1)} MB`,
      );

      const results = await compareTargets([ours], { default: tenantsListPlan(tokens) }, ctx.settings, ctx.log);
      const rssAfterLoad = rssMb(ours.child.pid);
      const afterLoad = await mockFigures(ours.url);
      ctx.log(`    RSS after the list load ${rssAfterLoad?.toFixed(1)} MB`);
      const growth = minus(rssAfterReads, rssStart);
      return {
        metrics: {
          ...loadMetrics(results),
          tenants: count,
          firstReadConcurrency: concurrency,
          firstAnswerP50Ms: round(first.p50, 3),
          firstAnswerP99Ms: round(first.p99, 3),
          firstAnswerMaxMs: round(first.max, 3),
          firstReadsPerSec: round(count / readsS, 1),
          firstReadsMockCpuS: round(cpuReads, 2),
          rssStartMb: round(rssStart, 1),
          rssAfterFirstReadsMb: round(rssAfterReads, 1),
          rssPerTenantKb: round(growth === null ? null : (growth * 1024) / count, 1),
          heapAfterFirstReadsMb: round(afterReads?.heapUsedMb, 1),
          tenantsInMemoryAfterFirstReads: afterReads?.tenants ?? null,
          rssAfterLoadMb: round(rssAfterLoad, 1),
          heapAfterLoadMb: round(afterLoad?.heapUsedMb, 1),
          tenantsInMemoryAfterLoad: afterLoad?.tenants ?? null,
        },
        targets: results,
        details: { maxTenants, firstRead: FIRST_READ, readsWallS: round(readsS, 3) },
        notes: [
          `${count.toLocaleString('en-US')} tenants (tokens minted offline beforehand, orgs ${orgOf(0)}...), each reading GET ${FIRST_READ} once, ${concurrency} at a time (more at once would measure a queue of other tenants' reads, not one tenant's cost); firstAnswer*: client-side latency of those reads. The mock runs with --max-tenants ${maxTenants}, so none is evicted (tenantsInMemory* include the default tenant).`,
          `Then the list requests (${NAME_FRAGMENTS.length} cached filters per tenant after each one's first use), each as the next tenant round-robin; RSS from /proc/<pid>/status VmRSS of the mock, heap from GET /__mock/stats (heapUsed, no forced collection).`,
        ],
      };
    } finally {
      await ours.stop();
    }
  },
};
