import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { cpuSeconds } from '../children.js';
import { agent } from '../http.js';
import { type LoadRun, type PacedLoadOptions, type RequestPlan, runPacedLoad } from '../load.js';
import { adminToken, listPath, listPlan } from '../requests.js';
import { median, round } from '../stats.js';
import { startDelayed, startProxy } from '../targets/index.js';
import { aggregate } from './compare.js';
import type { Outcome, ScenarioDef } from './types.js';

/** The load a user in front of a real deployment puts on the proxy: 10 connections, 1,000 requests/s in all. */
const CONNECTIONS = 10;
const RATE_PER_S = 1000;
/** How long the target takes to answer: a deployment's own work, not the fastest mock's 0.2 ms. */
const TARGET_DELAY_MS = 5;

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
 * The proxy is transparent: a list page and a 401 problem come back through it byte for byte as the direct answers.
 * Throws otherwise (the scenario fails).
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

const fmt = (v: number | null) => (v === null ? '-' : v.toFixed(2));

/** `b - a` when both are known. */
const minus = (b: number | null, a: number | null) => (a === null || b === null ? null : b - a);

export const proxyScenario: ScenarioDef = {
  name: 'proxy',
  description: `the latency \`opsapi proxy\` adds in front of a deployment: ${CONNECTIONS} connections at a fixed ${RATE_PER_S.toLocaleString('en-US')} requests/s to a target answering in ${TARGET_DELAY_MS} ms, directly and through the proxy (its own process, every exchange judged by the conformance rules)`,
  async run(ctx): Promise<Outcome> {
    const token = await adminToken();
    const plan: RequestPlan = listPlan(token);
    const target = await startDelayed(TARGET_DELAY_MS);
    const proxy = await startProxy(target.url).catch(async (error) => {
      await target.stop();
      throw error;
    });
    try {
      await assertSameAnswers(target.url, proxy.url, token);
      const targets = [
        { name: 'direct', url: target.url },
        { name: 'proxy', url: proxy.url },
      ] as const;
      const { settings } = ctx;
      const options = (seconds: number): PacedLoadOptions => ({
        connections: CONNECTIONS,
        ratePerS: RATE_PER_S,
        durationS: seconds,
        maxRequests: settings.maxRequests,
      });
      // Interleaved (direct, proxy, direct, proxy...), so a change in the machine's load weighs on both alike.
      if (settings.warmupS > 0)
        for (const t of targets) {
          await runPacedLoad(t.url, plan, options(settings.warmupS));
          await sleep(100);
        }
      const runs: Record<'direct' | 'proxy', LoadRun[]> = { direct: [], proxy: [] };
      const added: { p50Ms: number | null; p99Ms: number | null }[] = [];
      let proxyCpuS = 0;
      let proxyAnswers = 0;
      for (let r = 0; r < settings.rounds; r++) {
        for (const t of targets) {
          const cpuBefore = t.name === 'proxy' ? cpuSeconds(proxy.child.pid) : null;
          const run = await runPacedLoad(t.url, plan, options(settings.durationS));
          const cpuAfter = t.name === 'proxy' ? cpuSeconds(proxy.child.pid) : null;
          if (cpuBefore !== null && cpuAfter !== null) {
            proxyCpuS += cpuAfter - cpuBefore;
            proxyAnswers += run.responses;
          }
          ctx.log(
            `    round ${r + 1}/${settings.rounds} ${t.name.padEnd(6)} ${run.reqPerSec.toFixed(0).padStart(5)} req/s  p50 ${fmt(run.p50Ms)} ms  p99 ${fmt(run.p99Ms)} ms  max ${fmt(run.maxMs)} ms  errors ${run.errors}  unexpected ${run.unexpected}`,
          );
          runs[t.name].push(run);
          await sleep(100);
        }
        const direct = runs.direct[r] as LoadRun;
        const proxied = runs.proxy[r] as LoadRun;
        added.push({ p50Ms: minus(proxied.p50Ms, direct.p50Ms), p99Ms: minus(proxied.p99Ms, direct.p99Ms) });
      }
      const direct = aggregate(runs.direct);
      const proxied = aggregate(runs.proxy);
      // Each round against the direct round just before it: the machine's state drifts less within a pair.
      const addedMedian = (pick: (a: (typeof added)[number]) => number | null) =>
        round(median(added.map(pick).filter((v): v is number => v !== null)), 3);
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
          addedP50Ms: addedMedian((a) => a.p50Ms),
          addedP99Ms: addedMedian((a) => a.p99Ms),
          // The proxy's CPU per answer at this rate, in microseconds (from /proc; null where unavailable).
          'proxy.cpuUsPerRequest': proxyAnswers > 0 ? round((proxyCpuS / proxyAnswers) * 1e6, 1) : null,
          'checker.exchanges': judged.traffic.exchanges,
          'checker.violations': judged.traffic.withViolations,
        },
        details: {
          load: { connections: CONNECTIONS, ratePerS: RATE_PER_S, targetDelayMs: TARGET_DELAY_MS },
          added,
          direct,
          proxy: proxied,
          checker: { exchanges: judged.traffic.exchanges, measuredResponses: proxied.responses },
        },
        notes: [
          `Fixed-rate load (${CONNECTIONS} connections taking turns, ${RATE_PER_S.toLocaleString('en-US')} requests/s in all, each request sent when due even if its connection is still busy) to a node:http target that answers every list request after ${TARGET_DELAY_MS} ms (bench/targets/delayed-server.ts), directly and through \`opsapi proxy\` in its own process, rounds interleaved. addedP50Ms and addedP99Ms: each proxy round's p50 and p99 minus those of the direct round just before it, median over rounds.`,
          'The proxy judges every exchange (problem, pair, page, sort and schema rules); its report counts the exchanges it judged and the violations. Before the load, a list page and a 401 problem are compared byte for byte, directly and through the proxy.',
        ],
      };
    } finally {
      await proxy.stop();
      await target.stop();
    }
  },
};
