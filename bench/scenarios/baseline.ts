import { buildRevision } from '../build-revision.js';
import { call } from '../http.js';
import { adminToken, listPlan, stockPlan } from '../requests.js';
import { median, round } from '../stats.js';
import { startOurs, type Target } from '../targets/index.js';
import { compareTargets } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';
import { oneRound, Receiver } from './webhooks.js';

/** Requests per second of `name` over those of bare node:http, measured in the same interleaved rounds. */
function toBare(results: Awaited<ReturnType<typeof compareTargets>>, name: 'ours' | 'baseline'): number | null {
  const own = results[name]?.reqPerSec ?? null;
  const bare = results.bare?.reqPerSec ?? null;
  return own !== null && bare !== null && bare > 0 ? round(own / bare, 4) : null;
}

/**
 * How much ours moved against the baseline, as a fraction (-0.05: 5% lower): the median over rounds of ours over the
 * baseline in the same round. Paired by round, so a spell of other work on the machine weighs on both sides of each
 * ratio; for list and stock it is also the change of the ratio to bare, whose round cancels out of the quotient.
 */
function pairedChange(ours: readonly number[], baseline: readonly number[]): number | null {
  const ratios = ours.flatMap((o, i) => {
    const b = baseline[i];
    return b !== undefined && b > 0 ? [o / b] : [];
  });
  const middle = median(ratios);
  return middle === null ? null : round(middle - 1, 4);
}

/** Requests per second of each measured round of `name`. */
const roundRates = (results: Awaited<ReturnType<typeof compareTargets>>, name: 'ours' | 'baseline'): number[] =>
  (results[name]?.rounds ?? []).map((r) => r.reqPerSec);

/** The SKU and location of the stock update, as the mock's seed names them. */
async function stockTarget(target: Target, token: string): Promise<{ reference: string; locationReference: string }> {
  const fixtures = await call('GET', `${target.url}/__mock/fixtures`, { token });
  if (fixtures.status !== 200) throw new Error(`${target.name}: GET /__mock/fixtures answered ${fixtures.status}`);
  return fixtures.json<{ sku: { reference: string; locationReference: string } }>().sku;
}

/** End-to-end webhook deliveries per second, ours and the baseline taking turns round by round. */
async function webhookRounds(
  ours: Target,
  baseline: Target,
  settings: Parameters<ScenarioDef['run']>[0]['settings'],
  log: (message: string) => void,
): Promise<{ ours: number | null; baseline: number | null; change: number | null }> {
  const w = settings.webhooks;
  const receiver = new Receiver();
  await receiver.start();
  const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  const rates: Record<'ours' | 'baseline', number[]> = { ours: [], baseline: [] };
  try {
    for (let r = -1; r < w.rounds; r++) {
      for (const target of [ours, baseline]) {
        const events = r < 0 ? w.warmupEvents : w.events;
        if (events === 0) continue;
        const result = await oneRound(
          target.url,
          target.child.pid,
          receiver,
          `bench-base-${run}-${target.name}-${r + 1}`,
          w.subscriptions,
          events,
          w.triggerConcurrency,
          w.deliveryTimeoutS,
          0,
        );
        if (r < 0 || result.deliveriesPerSec === null) continue;
        rates[target.name as 'ours' | 'baseline'].push(result.deliveriesPerSec);
        log(`    webhooks round ${r + 1}/${w.rounds} ${target.name.padEnd(8)} ${result.deliveriesPerSec} deliveries/s`);
      }
    }
  } finally {
    await receiver.stop();
  }
  const med = (list: number[]) => (list.length > 0 ? round(median(list), 1) : null);
  return { ours: med(rates.ours), baseline: med(rates.baseline), change: pairedChange(rates.ours, rates.baseline) };
}

/**
 * Ours against an older build of ours (`--baseline-cli`), side by side in one run: the list and stock loads against
 * bare node:http, ours and the baseline in interleaved rounds (A B C, A B C...), so each one's ratio to bare is
 * measured under the same conditions, and the webhook load on ours and the baseline taking turns. The goal: each
 * of ours' figures within 10% of the baseline's (a renovation that keeps the speed).
 */
export const baselineScenario: ScenarioDef = {
  name: 'baseline',
  description:
    'list, stock and webhooks: ours and an older build of ours (--baseline-cli) side by side, each as a ratio to bare node:http',
  async run(ctx): Promise<Outcome> {
    if (!ctx.baselineCli) return { skip: 'no --baseline-cli FILE given (an older build to compare with)' };
    const bare = await ctx.pool.get('bare');
    const ours = await ctx.pool.get('ours');
    const baseline = await startOurs({ baselineCli: ctx.baselineCli });
    try {
      const token = await adminToken();
      const targets = [bare, ours, baseline];
      ctx.log('  list');
      const list = await compareTargets(targets, { default: listPlan(token) }, ctx.settings, ctx.log);
      const sku = await stockTarget(ours, token);
      const stock = stockPlan(token, sku.reference, sku.locationReference);
      ctx.log('  stock');
      // Bare answers every authenticated request with its fixed page: 200 is its expected status.
      const stockResults = await compareTargets(
        targets,
        { default: stock, bare: { ...stock, expected: [200] } },
        ctx.settings,
        ctx.log,
      );
      ctx.log('  webhooks');
      const webhooks = await webhookRounds(ours, baseline, ctx.settings, ctx.log);
      const listOurs = toBare(list, 'ours');
      const listBaseline = toBare(list, 'baseline');
      const stockOurs = toBare(stockResults, 'ours');
      const stockBaseline = toBare(stockResults, 'baseline');
      return {
        metrics: {
          'list.oursToBare': listOurs,
          'list.baselineToBare': listBaseline,
          'list.change': pairedChange(roundRates(list, 'ours'), roundRates(list, 'baseline')),
          'stock.oursToBare': stockOurs,
          'stock.baselineToBare': stockBaseline,
          'stock.change': pairedChange(roundRates(stockResults, 'ours'), roundRates(stockResults, 'baseline')),
          'webhooks.oursPerSec': webhooks.ours,
          'webhooks.baselinePerSec': webhooks.baseline,
          'webhooks.change': webhooks.change,
        },
        details: { baselineRevision: buildRevision(ctx.baselineCli), list, stock: stockResults },
        notes: [
          'Goal: no change below -10% (a change is the median over rounds of ours over the baseline in the same round, minus 1; for list and stock that is the change of the ratio to bare node:http, measured in the same interleaved rounds).',
          'The webhook figure has no bare counterpart: ours and the baseline deliver to the same receiver, round by round in turn.',
        ],
      };
    } finally {
      await baseline.stop();
    }
  },
};
