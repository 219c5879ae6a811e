/**
 * `npm run bench`: loads a bare node:http server (the ceiling), Prism (the peer) and our mock (each in its own
 * process) with the same requests, plus webhook, conformance and startup/memory scenarios; prints a table and
 * writes `results.json` and `results.md` (into bench/, or `--out DIR`). `--help` lists the options.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { killAllSync, stopAll } from './children.js';
import { parseArgs, USAGE, type Args } from './config.js';
import { agent } from './http.js';
import { loadAverage, machine } from './machine.js';
import { goals, markdownReport, textReport } from './report.js';
import type { Results, ScenarioResult } from './results.js';
import { TargetPool, type Context } from './scenarios/context.js';
import { runOursFrom } from './targets/index.js';
import { SCENARIO_DEFS } from './scenarios/index.js';

const log = (message: string) => process.stderr.write(`${message}\n`);

let args: Args;
try {
  const parsed = parseArgs(process.argv.slice(2));
  if (parsed === 'help') {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  args = parsed;
} catch (error) {
  process.stderr.write(`bench: ${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}

// Children never outlive the bench: killed on exit, on signals and on crashes.
process.on('exit', () => killAllSync());
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    log(`bench: ${signal}, stopping the targets`);
    killAllSync();
    process.exit(130);
  });
}
process.on('uncaughtException', (error) => {
  log(`bench: ${error.stack ?? error.message}`);
  killAllSync();
  process.exit(1);
});

const { settings } = args;
if (args.cli !== null && !existsSync(args.cli)) {
  process.stderr.write(`bench: --cli ${args.cli}: no such file\n`);
  process.exit(2);
}
runOursFrom(args.cli);
const pool = new TargetPool(args.profileDir);
const ctx: Context = {
  settings,
  pool,
  profileDir: args.profileDir,
  scenariosNamed: args.scenariosNamed,
  baselineCli: args.baselineCli,
  log,
};
const scenarios: Record<string, ScenarioResult> = {};
const loadAverageStart = loadAverage();
if (args.profileDir) mkdirSync(args.profileDir, { recursive: true });

log(
  `bench: ${settings.mode} mode, scenarios: ${args.scenarios.join(', ')}; load average ${loadAverageStart} on ${os.cpus().length} cores`,
);
try {
  for (const name of args.scenarios) {
    const def = SCENARIO_DEFS[name];
    log(`== ${name}: ${def.description}`);
    const t0 = performance.now();
    try {
      const outcome = await def.run(ctx);
      if ('skip' in outcome) {
        scenarios[name] = { name, description: def.description, status: 'skipped', reason: outcome.skip };
        log(`   skipped: ${outcome.skip}`);
      } else {
        scenarios[name] = {
          name,
          description: def.description,
          status: 'ok',
          wallS: Math.round(performance.now() - t0) / 1000,
          ...outcome,
        };
      }
    } catch (error) {
      scenarios[name] = {
        name,
        description: def.description,
        status: 'failed',
        error: (error as Error).stack ?? String(error),
      };
      log(`   FAILED: ${(error as Error).message}`);
    }
  }
} finally {
  await pool.stopAll();
  await stopAll();
  await agent.close().catch(() => undefined);
}

const results: Results = {
  machine: machine(loadAverageStart),
  mode: settings.mode,
  settings: {
    connections: settings.connections,
    warmupS: settings.warmupS,
    durationS: settings.durationS,
    rounds: settings.rounds,
    bigCatalogs: settings.bigCatalogs,
    webhooks: settings.webhooks,
    startup: settings.startup,
    tenants: settings.tenants,
    varied: settings.varied,
    profiled: args.profileDir !== null,
  },
  scenarios,
  goals: goals(scenarios),
};
mkdirSync(args.outDir, { recursive: true });
writeFileSync(join(args.outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(args.outDir, 'results.md'), markdownReport(results));
process.stdout.write(`\n${textReport(results)}\n\nWrote ${join(args.outDir, 'results.json')} and results.md\n`);
process.exit(Object.values(scenarios).some((s) => s.status === 'failed') ? 1 : 0);
