import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { agent } from '../http.js';
import { type LoadRun, type RequestPlan, runLoad } from '../load.js';
import { adminToken, listPath, listPlan } from '../requests.js';
import { ratio, round } from '../stats.js';
import { startProxy, type Target } from '../targets/index.js';
import { aggregate } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';

/** One GET's status and body bytes. */
async function answerOf(url: string, token: string | null): Promise<{ status: number; body: string }> {
  const res = await request(url, {
    dispatcher: agent,
    headers: token ? { authorization: `Bearer ${token}`, accept: 'application/json' } : { accept: 'application/json' },
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  return { status: res.statusCode, body: await res.body.text() };
}

/**
 * The proxy is transparent: a list page and a 401 problem (whose `type` our mock builds from the Host header) come
 * back through it byte for byte as the direct answers. Throws otherwise (the scenario fails).
 */
async function assertSameAnswers(direct: string, proxied: string, token: string): Promise<void> {
  for (const [path, auth] of [
    [listPath(0), token],
    ['/v1/items/skus?pageSize=1', null],
  ] as const) {
    const a = await answerOf(direct + path, auth);
    const b = await answerOf(proxied + path, auth);
    if (a.status !== b.status || a.body !== b.body)
      throw new Error(
        `GET ${path}: through the proxy ${b.status} ${b.body.slice(0, 200)}, directly ${a.status} ${a.body.slice(0, 200)}`,
      );
  }
}

export const proxyScenario: ScenarioDef = {
  name: 'proxy',
  description:
    'the list requests to our mock directly and through `opsapi proxy` (its own process, every exchange judged by the conformance rules)',
  async run(ctx): Promise<Outcome> {
    const ours: Target = await ctx.pool.get('ours');
    const token = await adminToken();
    const plan: RequestPlan = listPlan(token);
    const proxy = await startProxy(ours.url);
    try {
      await assertSameAnswers(ours.url, proxy.url, token);
      const targets = [
        { name: 'direct', url: ours.url },
        { name: 'proxy', url: proxy.url },
      ] as const;
      const { settings } = ctx;
      const options = (seconds: number) => ({
        connections: settings.connections,
        durationS: seconds,
        maxRequests: settings.maxRequests,
      });
      // Interleaved like compareTargets (direct, proxy, direct, proxy...): a warm-up, then the measured rounds.
      if (settings.warmupS > 0)
        for (const t of targets) {
          await runLoad(t.url, plan, options(settings.warmupS));
          await sleep(100);
        }
      const runs: Record<'direct' | 'proxy', LoadRun[]> = { direct: [], proxy: [] };
      for (let r = 0; r < settings.rounds; r++) {
        for (const t of targets) {
          const run = await runLoad(t.url, plan, options(settings.durationS));
          ctx.log(
            `    round ${r + 1}/${settings.rounds} ${t.name.padEnd(6)} ${run.reqPerSec.toFixed(0).padStart(7)} req/s  p50 ${run.p50Ms?.toFixed(2) ?? '-'} ms  p99 ${run.p99Ms?.toFixed(2) ?? '-'} ms  errors ${run.errors}  unexpected ${run.unexpected}`,
          );
          runs[t.name].push(run);
          await sleep(100);
        }
      }
      const direct = aggregate(runs.direct);
      const proxied = aggregate(runs.proxy);
      const proxiedResponses = proxied.responses;
      const judged = (await (await request(`${proxy.url}/__proxy/report`, { dispatcher: agent })).body.json()) as {
        traffic: { exchanges: number; withViolations: number };
      };
      return {
        metrics: {
          'direct.reqPerSec': direct.reqPerSec,
          'direct.p50Ms': direct.p50Ms,
          'direct.p99Ms': direct.p99Ms,
          'proxy.reqPerSec': proxied.reqPerSec,
          'proxy.p50Ms': proxied.p50Ms,
          'proxy.p99Ms': proxied.p99Ms,
          'proxy.errors': proxied.errors,
          'proxy.unexpected': proxied.unexpected,
          proxyVsDirect: round(ratio(proxied.reqPerSec, direct.reqPerSec), 3),
          'checker.exchanges': judged.traffic.exchanges,
          'checker.violations': judged.traffic.withViolations,
        },
        details: {
          direct,
          proxy: proxied,
          checker: { exchanges: judged.traffic.exchanges, measuredResponses: proxiedResponses },
        },
        notes: [
          '`opsapi proxy` runs in its own process in front of the same mock and judges every exchange (problem, pair, page, sort and schema rules); its report counts the exchanges it judged and the violations (0 expected).',
          'Before the load, a list page and a 401 problem are compared byte for byte, directly and through the proxy.',
        ],
      };
    } finally {
      await proxy.stop();
    }
  },
};
