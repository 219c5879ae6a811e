import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { round } from '../stats.js';
import { startOurs } from '../targets/index.js';
import { CONFORM_COMMAND } from './conform.js';
import { runConform } from './conform-run.js';
import type { Outcome, ScenarioDef } from './types.js';

/** The round trip the mock adds to every answer: a deployment across a network rather than on loopback. */
const LATENCY = '50ms';

/** The slowest checks named in the details (per-check own time of the JSON report). */
const SLOWEST = 10;

/** The parts of the runner's JSON report (`--report x.json`) the scenario reads. */
interface ConformReport {
  durationMs: number;
  mustRan: number;
  mustTotal: number;
  exitCode: number;
  counts: Record<'pass' | 'fail' | 'error' | 'skip', { MUST: number; SHOULD: number; total: number }>;
  checks: { id: string; level: string; outcome: string; durationMs: number; reason?: string; info?: string[] }[];
}

/** The probe's figures from the info lines of its checks (`conformance/checks/rate-limit.ts`). */
function probeFigures(report: ConformReport): Record<string, number | null> {
  const info = (id: string) => report.checks.find((c) => c.id === id)?.info?.join('\n') ?? '';
  const met = /after (\d+) requests in ([\d.]+) s, up to (\d+) in flight/.exec(info('rate-limit.429'));
  const waited = /Waited (\d+) ms/.exec(info('rate-limit.recovery'));
  return {
    probeRequestsToLimit: met ? Number(met[1]) : null,
    probeSecondsToLimit: met ? Number(met[2]) : null,
    probePeakInFlight: met ? Number(met[3]) : null,
    probeRecoveryWaitMs: waited ? Number(waited[1]) : null,
  };
}

export const conformRemoteScenario: ScenarioDef = {
  name: 'conform-remote',
  description: `wall time of a certifying run (\`opsapi conform --allow-writes --webhooks --rate-limit-probe --certify\`) against \`opsapi mock --latency ${LATENCY}\` at its default 300/s limit: every MUST check must run (goal <= 30 s)`,
  async run(ctx): Promise<Outcome> {
    if (!existsSync(CONFORM_COMMAND)) return { skip: 'conformance runner not available' };
    if (ctx.settings.mode === 'quick' && !ctx.scenariosNamed)
      return { skip: 'not run in quick mode (name it with --scenarios conform-remote)' };
    const dir = mkdtempSync(join(tmpdir(), 'opsapi-conform-remote-'));
    const file = join(dir, 'report.json');
    const ours = await startOurs({
      flags: ['--latency', LATENCY, '--rate-limit', '300/1s'],
      profileDir: ctx.profileDir,
    });
    try {
      const timeoutS = ctx.settings.conformRemoteTimeoutS;
      const run = await runConform(
        ['--base-url', ours.url, '--allow-writes', '--webhooks', '--rate-limit-probe', '--certify', '--report', file],
        timeoutS,
      );
      const notes: string[] = [];
      if (run.timedOut) notes.push(`stopped after ${timeoutS} s`);
      if (run.exitCode !== 0)
        notes.push(`the runner exited with ${String(run.exitCode)}; the tail of its output is in details.outputTail`);
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformReport) : null;
      const skipped = report?.checks.filter((c) => c.level === 'MUST' && c.outcome === 'skip') ?? [];
      const slowest = [...(report?.checks ?? [])]
        .sort((a, b) => b.durationMs - a.durationMs)
        .slice(0, SLOWEST)
        .map((c) => ({ id: c.id, durationMs: c.durationMs }));
      return {
        metrics: {
          wallS: round(run.wallS, 2),
          runnerS: report ? round(report.durationMs / 1000, 2) : null,
          mustRan: report?.mustRan ?? null,
          mustTotal: report?.mustTotal ?? null,
          mustSkipped: report ? report.counts.skip.MUST : null,
          mustFailed: report ? report.counts.fail.MUST + report.counts.error.MUST : null,
          exitCode: run.exitCode,
          timedOut: run.timedOut ? 1 : 0,
          ...(report ? probeFigures(report) : {}),
        },
        details: {
          slowestChecks: slowest,
          mustSkipped: skipped.map((c) => `${c.id}: ${c.reason ?? ''}`),
          ...(run.exitCode === 0 ? {} : { outputTail: run.output.slice(-3000) }),
        },
        notes,
      };
    } finally {
      await ours.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
