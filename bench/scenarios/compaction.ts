import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectStatus } from '../http.js';
import { runLoad, runPacedLoad, type RequestPlan } from '../load.js';
import { adminToken, listPlan } from '../requests.js';
import { round } from '../stats.js';
import { startOurs, type Target } from '../targets/index.js';
import type { ScenarioDef } from './types.js';

/** The other tenant's pace while the state is compacted: a client at a steady, modest rate. */
const VICTIM_RATE = 50;

/** Tenants that write the large state, round-robin (each within the 100,000 API keys a tenant may have here). */
const WRITERS = 4;

/** Creates API keys, each a new entity of the state file (one journal line, one snapshot record). */
function apiKeyPlan(tokens: readonly string[]): RequestPlan {
  const auth = tokens.map((token) => ({ authorization: `Bearer ${token}` }));
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    headersOf: (i) => auth[i % auth.length] ?? {},
    path: () => '/v1/access/apiKeys',
    body: (i) => JSON.stringify({ name: `bench key ${i}` }),
    expected: [201],
  };
}

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** The mock on `state`, its journal never compacted by size unless `compactLines` is small. */
const mockOn = (state: string, compactLines: number) =>
  startOurs({
    flags: [
      '--rate-limit',
      'off',
      '--state',
      state,
      '--state-compact-lines',
      String(compactLines),
      '--max-api-keys',
      '100000',
    ],
    readyTimeoutMs: 180_000,
  });

/**
 * The other tenant's list p99 while the state file of a large state is compacted, against its quiet value on the same
 * process: a state of N entities is written with compaction held off, the mock is killed (no compaction at close),
 * then restarted with a small compaction threshold, so its first write starts a compaction of the whole state.
 */
export const compactionScenario: ScenarioDef = {
  name: 'compaction',
  description:
    "another tenant's list p99 during the compaction of a large --state (API keys of a few tenants), against its quiet value; the files' size before and after",
  async run(ctx) {
    const c = ctx.settings.compaction;
    const dir = mkdtempSync(join(tmpdir(), 'opsapi-bench-compaction-'));
    const state = join(dir, 'state.json');
    let target: Target | null = null;
    try {
      // 1. A large state, never compacted: the writes of one tenant.
      target = await mockOn(state, 100_000_000);
      const writers = await Promise.all(Array.from({ length: WRITERS }, (_, i) => adminToken(`bench-writer-${i}`)));
      const writer = writers[0] ?? '';
      const written = await runLoad(target.url, apiKeyPlan(writers), {
        connections: 10,
        durationS: c.writeS,
        maxRequests: c.entities,
      });
      ctx.log(`    wrote ${written.responses} API keys (${round(written.reqPerSec, 0)}/s)`);
      target.child.proc.kill('SIGKILL');
      await target.stop();
      target = null;
      const journalBefore = sizeOf(`${state}.journal`);
      const snapshotBefore = sizeOf(state);

      // 2. Restarted with a small threshold: the state loads lazily (a read of the writer loads its tenant), and the
      // first write compacts it.
      target = await mockOn(state, 100);
      const victim = await adminToken('bench-reader');
      const plan = listPlan(victim);
      const paced = (seconds: number) =>
        runPacedLoad(target?.url ?? '', plan, {
          connections: 2,
          ratePerS: VICTIM_RATE,
          durationS: seconds,
          maxRequests: Math.ceil(seconds * VICTIM_RATE),
        });
      await paced(Math.min(2, c.quietS)); // warm-up
      await expectStatus(200, 'GET', `${target.url}/v1/items/skus?pageSize=1`, { token: writer });
      const quiet = await paced(c.quietS);
      const t0 = performance.now();
      const during = paced(c.duringS);
      await expectStatus(201, 'POST', `${target.url}/v1/access/apiKeys`, {
        token: writer,
        body: { name: 'the write that starts the compaction' },
      });
      // The compaction ends when the journal is replaced by its short tail.
      let compactionMs: number | null = null;
      while (performance.now() - t0 < c.duringS * 1000 + 60_000) {
        if (sizeOf(`${state}.journal`) < journalBefore / 2) {
          compactionMs = performance.now() - t0;
          break;
        }
        await sleep(10);
      }
      const load = await during;
      const metrics = {
        entities: written.responses,
        'files.beforeMb': round((journalBefore + snapshotBefore) / 1024 / 1024, 1),
        'files.afterMb': round((sizeOf(`${state}.journal`) + sizeOf(state)) / 1024 / 1024, 1),
        compactionMs: round(compactionMs, 0),
        'victim.quietP99Ms': round(quiet.p99Ms, 3),
        'victim.duringP99Ms': round(load.p99Ms, 3),
        'victim.p99Ratio': quiet.p99Ms && load.p99Ms ? round(load.p99Ms / quiet.p99Ms, 2) : null,
        'victim.maxMs': round(load.maxMs, 1),
        'victim.errors': load.errors + load.unexpected,
      };
      ctx.log(
        `    compaction of ${metrics.entities} entities in ${metrics.compactionMs ?? '-'} ms; files ${metrics['files.beforeMb']} → ${metrics['files.afterMb']} MB; other tenant p99 ${metrics['victim.quietP99Ms']} → ${metrics['victim.duringP99Ms']} ms (${metrics['victim.p99Ratio'] ?? '-'}x)`,
      );
      return { metrics, notes: compactionMs === null ? ['the compaction did not end within the window'] : [] };
    } finally {
      await target?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
