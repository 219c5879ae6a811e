import { rssMb } from '../children.js';
import { call } from '../http.js';
import type { RequestPlan } from '../load.js';
import { adminToken, listPath, listPlan, NAME_FRAGMENTS, stockPlan, unauthorizedPlan } from '../requests.js';
import { round, summarise } from '../stats.js';
import { startOurs, type Target } from '../targets/index.js';
import { compareTargets, loadMetrics } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';

/** One request of `plan` to `target`: it must answer an expected status (fails the scenario early otherwise). */
async function probe(target: Target, plan: RequestPlan): Promise<void> {
  const headers = plan.headers;
  const token = headers.authorization?.replace(/^Bearer /, '');
  const answer = await call(plan.method, target.url + plan.path(0), {
    ...(token ? { token } : {}),
    ...(plan.body ? { body: JSON.parse(plan.body(0)) as unknown } : {}),
  });
  if (!plan.expected.includes(answer.status))
    throw new Error(
      `${target.name}: ${plan.method} ${plan.path(0)} answered ${answer.status}, expected ${plan.expected.join('/')}: ${answer.text.slice(0, 300)}`,
    );
}

/**
 * Latency of each list query the first time it is asked (the filter and page caches empty for it), one at a time,
 * after warming the server up with other filters: the cost the load numbers hide once every query is cached.
 */
async function coldQueries(target: Target, token: string): Promise<{ p50Ms: number | null; maxMs: number | null }> {
  for (let i = 0; i < 200; i++) {
    const other = `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7) % 26))}${i}`;
    await call(
      'GET',
      `${target.url}/v1/items/skus?pageSize=25&filterBy=${encodeURIComponent(`reference[Contains]${other}`)}`,
      { token },
    );
  }
  const times: number[] = [];
  for (let i = 0; i < NAME_FRAGMENTS.length; i++) {
    const t = performance.now();
    const answer = await call('GET', target.url + listPath(i), { token });
    times.push(performance.now() - t);
    if (answer.status !== 200) throw new Error(`${target.name}: ${listPath(i)} answered ${answer.status}`);
  }
  const s = summarise(times);
  return { p50Ms: round(s.p50, 3), maxMs: round(s.max, 3) };
}

export const listScenario: ScenarioDef = {
  name: 'list',
  description:
    'GET /v1/items/skus?pageSize=25&sortBy=-name&filterBy=name[Contains]<x>, default catalog, all three targets',
  async run(ctx) {
    const targets = [await ctx.pool.get('bare'), await ctx.pool.get('prism'), await ctx.pool.get('ours')];
    const token = await adminToken();
    const plan = listPlan(token);
    const ours = targets[2] as Target;
    const cold = await coldQueries(ours, token);
    for (const t of targets) await probe(t, plan);
    const rssStart = rssMb(ours.child.pid);
    const results = await compareTargets(targets, { default: plan }, ctx.settings, ctx.log);
    const rssEnd = rssMb(ours.child.pid);
    return {
      metrics: {
        ...loadMetrics(results),
        'ours.coldP50Ms': cold.p50Ms,
        'ours.coldMaxMs': cold.maxMs,
        'ours.rssStartMb': round(rssStart, 1),
        'ours.rssEndMb': round(rssEnd, 1),
      },
      targets: results,
      notes: [
        'Bare answers a fixed 25-item page of the same shape; Prism answers its static example.',
        `The load cycles through ${NAME_FRAGMENTS.length} filters, which the mock caches after their first use; coldP50Ms/coldMaxMs: each filter's first answer, one at a time.`,
      ],
    };
  },
};

function bigList(name: 'list-10k' | 'list-100k'): ScenarioDef {
  return {
    name,
    description: `the list requests over a catalog of ${name === 'list-10k' ? '10,000' : '100,000'} SKUs (ours only)`,
    async run(ctx): Promise<Outcome> {
      const skus = ctx.settings.bigCatalogs[name];
      if (skus === null && !ctx.scenariosNamed)
        return { skip: `not run in ${ctx.settings.mode} mode (name it with --scenarios ${name})` };
      const size = skus ?? (name === 'list-10k' ? 10_000 : 100_000);
      const ours = await startOurs({ skus: size, profileDir: ctx.profileDir, readyTimeoutMs: 180_000 });
      try {
        const token = await adminToken();
        const plan = listPlan(token);
        const cold = await coldQueries(ours, token);
        await probe(ours, plan);
        const results = await compareTargets([ours], { default: plan }, ctx.settings, ctx.log);
        const first = await call('GET', ours.url + listPath(0), { token });
        const totalCount = (first.json<{ totalCount?: number }>().totalCount ?? null) as number | null;
        return {
          metrics: {
            ...loadMetrics(results),
            skus: size,
            'ours.coldP50Ms': cold.p50Ms,
            'ours.coldMaxMs': cold.maxMs,
            'ours.readyMs': round(ours.readyMs, 0),
            'ours.rssMb': round(rssMb(ours.child.pid), 1),
          },
          targets: results,
          details: { firstFilterTotalCount: totalCount },
          notes: [
            `The load cycles through ${NAME_FRAGMENTS.length} cached filters; coldP50Ms/coldMaxMs: each filter's first answer over the whole catalog, one at a time.`,
          ],
        };
      } finally {
        await ours.stop();
      }
    },
  };
}

export const list10kScenario = bigList('list-10k');
export const list100kScenario = bigList('list-100k');

export const stockScenario: ScenarioDef = {
  name: 'stock',
  description: 'PUT /v1/items/skus/{ref}/stock with a valid body (ours; Prism for reference)',
  async run(ctx) {
    const ours = await ctx.pool.get('ours');
    const prism = await ctx.pool.get('prism');
    const token = await adminToken();
    const fixtures = await call('GET', `${ours.url}/__mock/fixtures`, { token });
    if (fixtures.status !== 200)
      throw new Error(`GET /__mock/fixtures answered ${fixtures.status}: ${fixtures.text.slice(0, 300)}`);
    const manifest = fixtures.json<{ sku: { reference: string; locationReference: string } }>();
    const plan = stockPlan(token, manifest.sku.reference, manifest.sku.locationReference);
    await probe(prism, plan);
    await probe(ours, plan);
    const results = await compareTargets([prism, ours], { default: plan }, ctx.settings, ctx.log);
    return {
      metrics: loadMetrics(results),
      targets: results,
      details: { sku: manifest.sku.reference, location: manifest.sku.locationReference },
      notes: ['Each update emits Warehouse.Stock.Updated on ours (no subscription in the tenant, so no delivery).'],
    };
  },
};

export const unauthorizedScenario: ScenarioDef = {
  name: 'unauthorized',
  description: 'GET /v1/items/skus without credentials: a 401 problem, all three targets',
  async run(ctx) {
    const targets = [await ctx.pool.get('bare'), await ctx.pool.get('prism'), await ctx.pool.get('ours')];
    const plan = unauthorizedPlan();
    for (const t of targets) await probe(t, plan);
    const results = await compareTargets(targets, { default: plan }, ctx.settings, ctx.log);
    return { metrics: loadMetrics(results), targets: results, notes: [] };
  },
};
