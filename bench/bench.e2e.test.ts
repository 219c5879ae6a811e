import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { compileEntry } from '../test/support/compiled-cli.js';
import { SCENARIOS } from './config.js';
import type { Results } from './results.js';
import { ROOT } from './targets/index.js';

const LIMIT_MS = 90_000;
const out = mkdtempSync(join(tmpdir(), 'opsapi-bench-'));

afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The smoke run: every scenario of `--quick`, each load run ending after 60 requests (or 0.2 s, whichever comes first:
 * Prism on a loaded machine answers some forty in that time), so every ratio has two numbers: the harness is proven,
 * no figure is judged. Bounded by count, the smoke's CPU no longer grows with the machine's speed.
 */
const SMOKE_ARGS = ['--quick', '--duration', '0.2', '--max-requests', '60', '--out', out, '--cli', inject('opsapiCli')];

/**
 * Runs `node bench/run.ts <SMOKE_ARGS>` (bounded), both the runner and our mock compiled like the CLI the e2e layer
 * compiles (test/support/compiled-cli.ts), so the smoke run spends no time in tsx's loader; resolves with its exit
 * code and output.
 */
async function runQuickBench(): Promise<{ code: number | null; output: string }> {
  // Under node_modules/.cache, inside this checkout: the packages the runner imports resolve from its node_modules.
  const runner = await compileEntry('bench/run.ts');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runner, ...SMOKE_ARGS], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const kill = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        /* gone */
      }
    };
    const timer = setTimeout(() => {
      output += `\n[test] bench still running after ${LIMIT_MS} ms: stopped\n`;
      kill('SIGTERM');
      setTimeout(() => kill('SIGKILL'), 5000).unref();
    }, LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('npm run bench --quick', () => {
  it('runs every scenario and writes results.json and results.md', { timeout: LIMIT_MS + 20_000 }, async () => {
    const { code, output } = await runQuickBench();
    expect(code, output.slice(-6000)).toBe(0);

    const file = join(out, 'results.json');
    expect(existsSync(file)).toBe(true);
    expect(existsSync(join(out, 'results.md'))).toBe(true);
    const results = JSON.parse(readFileSync(file, 'utf8')) as Results;

    expect(results.mode).toBe('quick');
    expect(results.machine.cores).toBeGreaterThan(0);
    expect(typeof results.machine.cpuModel).toBe('string');
    expect(results.machine.node).toMatch(/^v\d+\./);
    expect(Number.isNaN(Date.parse(results.machine.date))).toBe(false);

    for (const name of SCENARIOS) {
      const scenario = results.scenarios[name];
      expect(scenario, `scenario ${name}`).toBeDefined();
      if (!scenario) continue;
      expect(['ok', 'skipped'], `${name}: ${JSON.stringify(scenario).slice(0, 2000)}`).toContain(scenario.status);
      if (scenario.status === 'skipped') {
        expect(scenario.reason.length, name).toBeGreaterThan(0);
      } else if (scenario.status === 'ok') {
        const numbers = Object.values(scenario.metrics).filter((v) => typeof v === 'number' && Number.isFinite(v));
        expect(numbers.length, `${name} has numbers`).toBeGreaterThan(0);
      }
    }

    // The load scenarios measure every target they name; no thresholds, just numbers.
    const list = results.scenarios.list;
    expect(list?.status).toBe('ok');
    if (list?.status === 'ok') {
      for (const target of ['bare', 'prism', 'ours'])
        expect(typeof list.metrics[`${target}.reqPerSec`], target).toBe('number');
      expect(typeof list.metrics.oursVsPrism).toBe('number');
      expect(typeof list.metrics.oursVsBare).toBe('number');
    }
    const webhooks = results.scenarios.webhooks;
    if (webhooks?.status === 'ok') expect(webhooks.metrics.signatureFailures).toBe(0);
    expect(Array.isArray(results.goals)).toBe(true);
  });
});
