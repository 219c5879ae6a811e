import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb } from '../children.js';
import { call } from '../http.js';
import { runLoad } from '../load.js';
import { adminToken, listPlan } from '../requests.js';
import { round } from '../stats.js';
import { startOurs } from '../targets/index.js';
import type { ScenarioDef } from './types.js';

/** Polls `url` until it answers 200 (bounded); returns `performance.now()` of that answer. */
async function firstOk(url: string, token: string, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let last = '';
  while (performance.now() < deadline) {
    try {
      const answer = await call('GET', url, { token, timeoutMs: Math.max(1000, deadline - performance.now()) });
      if (answer.status === 200) return performance.now();
      last = `status ${answer.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(10);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${last})`);
}

export const startupScenario: ScenarioDef = {
  name: 'startup-and-memory',
  description:
    'spawn -> first 200 on /v1/items/skus with a big catalog, RSS after seeding, RSS before/after the list load, seeding of a second tenant',
  async run(ctx) {
    const skus = ctx.settings.startup.skus;
    const token = await adminToken();
    const ours = await startOurs({ skus, profileDir: ctx.profileDir, readyTimeoutMs: 180_000 });
    try {
      const first = await firstOk(`${ours.url}/v1/items/skus`, token, 180_000);
      const firstAnswerMs = first - ours.spawnedAt;
      const rssAfterSeed = rssMb(ours.child.pid);
      const load = await runLoad(ours.url, listPlan(token), {
        connections: ctx.settings.connections,
        durationS: ctx.settings.startup.listLoadS,
        maxRequests: ctx.settings.maxRequests,
      });
      const rssAfterList = rssMb(ours.child.pid);
      // The same load again: a heap that has found its size stays flat; growth here is retained memory.
      const again = await runLoad(ours.url, listPlan(token), {
        connections: ctx.settings.connections,
        durationS: ctx.settings.startup.listLoadS,
        maxRequests: ctx.settings.maxRequests,
      });
      const rssAfterSecondList = rssMb(ours.child.pid);
      ctx.log(
        `    first answer ${firstAnswerMs.toFixed(0)} ms; RSS ${rssAfterSeed?.toFixed(1)} MB -> ${rssAfterList?.toFixed(1)} MB over ${load.responses} list requests -> ${rssAfterSecondList?.toFixed(1)} MB over ${again.responses} more`,
      );
      const otherToken = await adminToken(`bench-seed-${process.pid.toString(36)}${Date.now().toString(36)}`);
      const t = performance.now();
      const other = await call('GET', `${ours.url}/v1/items/skus`, { token: otherToken, timeoutMs: 180_000 });
      const secondTenantMs = performance.now() - t;
      if (other.status !== 200)
        throw new Error(`a second tenant's first list answered ${other.status}: ${other.text.slice(0, 300)}`);
      const rssTwoTenants = rssMb(ours.child.pid);
      return {
        metrics: {
          skus,
          listeningMs: round(ours.readyMs, 0),
          firstAnswerMs: round(firstAnswerMs, 0),
          rssAfterSeedMb: round(rssAfterSeed, 1),
          rssAfterListMb: round(rssAfterList, 1),
          rssGrowthMb: rssAfterSeed !== null && rssAfterList !== null ? round(rssAfterList - rssAfterSeed, 1) : null,
          rssAfterSecondListMb: round(rssAfterSecondList, 1),
          rssGrowthSecondListMb:
            rssAfterList !== null && rssAfterSecondList !== null ? round(rssAfterSecondList - rssAfterList, 1) : null,
          'list.reqPerSec': round(load.reqPerSec, 1),
          'list.p50Ms': round(load.p50Ms, 3),
          'list.p99Ms': round(load.p99Ms, 3),
          'list.unexpected': load.unexpected,
          secondTenantFirstAnswerMs: round(secondTenantMs, 0),
          rssTwoTenantsMb: round(rssTwoTenants, 1),
        },
        details: {
          listLoadS: ctx.settings.startup.listLoadS,
          listResponses: load.responses,
          secondListResponses: again.responses,
        },
        notes: [
          'Spawned as node --import tsx cli/opsapi.ts mock (TypeScript compiled on the fly, as with npx tsx); the CLI seeds the default tenant before it prints its URL.',
          'RSS from /proc/<pid>/status VmRSS of the mock process: after seeding, after one list load, after a second identical one (a plateau means the heap found its size).',
        ],
      };
    } finally {
      await ours.stop();
    }
  },
};
