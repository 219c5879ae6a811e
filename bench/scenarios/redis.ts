import { startRedisServer } from '../../common/redis-server.js';
import { spawnSync } from 'node:child_process';
import { REDIS_SERVER } from '../../common/redis-server.js';
import { call } from '../http.js';
import { adminToken, listPlan, stockPlan } from '../requests.js';
import { ratio, round } from '../stats.js';
import { startOurs, type Target } from '../targets/index.js';
import { compareTargets, loadMetrics } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';
import { oneRound, Receiver, type RoundResult } from './webhooks.js';

/** The fixtures of the default tenant of a target (both mocks seed the same world). */
async function stockTarget(target: Target, token: string): Promise<{ reference: string; locationReference: string }> {
  const fixtures = await call('GET', `${target.url}/__mock/fixtures`, { token });
  if (fixtures.status !== 200)
    throw new Error(`${target.name}: GET /__mock/fixtures answered ${fixtures.status}: ${fixtures.text.slice(0, 300)}`);
  return fixtures.json<{ sku: { reference: string; locationReference: string } }>().sku;
}

export const redisScenario: ScenarioDef = {
  name: 'redis',
  description:
    'one replica on Redis (`--redis`, a redis-server on loopback) vs the in-memory mock: list and stock req/s, then webhook deliveries/s',
  async run(ctx): Promise<Outcome> {
    if (spawnSync(REDIS_SERVER, ['--version']).status !== 0)
      return { skip: `${REDIS_SERVER} is not installed (apt-get install -y redis-server)` };
    const redis = await startRedisServer();
    const memory = await ctx.pool.get('ours');
    const started = await startOurs({
      flags: ['--rate-limit', 'off', '--redis', redis.url],
      profileDir: ctx.profileDir,
    });
    const replica: Target = { ...started, name: 'redis', stop: started.stop };
    try {
      const token = await adminToken();
      const list = await compareTargets([memory, replica], { default: listPlan(token) }, ctx.settings, ctx.log);
      const sku = await stockTarget(memory, token);
      const stock = await compareTargets(
        [memory, replica],
        { default: stockPlan(token, sku.reference, sku.locationReference) },
        ctx.settings,
        ctx.log,
      );
      const w = ctx.settings.webhooks;
      const receiver = new Receiver();
      await receiver.start();
      const deliveries: Record<'ours' | 'redis', RoundResult | null> = { ours: null, redis: null };
      try {
        const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
        for (const t of [memory, replica]) {
          const key = t.name === 'redis' ? 'redis' : 'ours';
          deliveries[key] = await oneRound(
            t.url,
            t.child.pid,
            receiver,
            `bench-redis-${run}-${key}`,
            w.subscriptions,
            w.events,
            w.triggerConcurrency,
            w.deliveryTimeoutS,
            0,
          );
          ctx.log(
            `    webhooks ${key.padEnd(5)} ${deliveries[key]?.delivered}/${deliveries[key]?.expected} delivered  ${deliveries[key]?.deliveriesPerSec ?? '-'} deliveries/s`,
          );
        }
      } finally {
        await receiver.stop();
      }
      const rate = (r: typeof list, name: 'ours' | 'redis') => r[name]?.reqPerSec ?? null;
      return {
        metrics: {
          'list.memory.reqPerSec': rate(list, 'ours'),
          'list.redis.reqPerSec': rate(list, 'redis'),
          listRedisVsMemory: round(ratio(rate(list, 'redis'), rate(list, 'ours')), 3),
          'stock.memory.reqPerSec': rate(stock, 'ours'),
          'stock.redis.reqPerSec': rate(stock, 'redis'),
          stockRedisVsMemory: round(ratio(rate(stock, 'redis'), rate(stock, 'ours')), 3),
          'webhooks.memory.deliveriesPerSec': deliveries.ours?.deliveriesPerSec ?? null,
          'webhooks.redis.deliveriesPerSec': deliveries.redis?.deliveriesPerSec ?? null,
          'webhooks.redis.missing': deliveries.redis ? deliveries.redis.expected - deliveries.redis.delivered : null,
          'webhooks.redis.duplicates': deliveries.redis?.duplicates ?? null,
        },
        details: { list: loadMetrics(list), stock: loadMetrics(stock), deliveries },
        notes: [
          'Both mocks run as their own process with the same flags (rate limit off); the replica keeps every write in a redis-server started for the scenario (no persistence), and brings the tenant up to date from it before each request.',
          'Webhooks: one round of the webhooks scenario against each (same subscriptions and events).',
        ],
      };
    } finally {
      await replica.stop();
      await redis.stop();
    }
  },
};
