import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshDist } from '../support/fresh-dist.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
/** Generous: the scenario takes about a second; a process kept alive by a leaked handle never ends on its own. */
const EXIT_BOUND_MS = 60_000;

/** Runs `node file` and resolves with how it ended (a timeout kills it: `signal` is then set). */
function runNode(
  file: string,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [file],
      { cwd: here, timeout: EXIT_BOUND_MS, killSignal: 'SIGKILL', encoding: 'utf8' },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr }),
    );
  });
}

describe('opsapi/testing compiled, run by plain node', () => {
  beforeAll(async () => {
    // dist/ is built by `prepare` on `npm ci`; sources edited since then are compiled again first.
    await ensureFreshDist(root);
  }, 300_000);

  it('resolves the package name to dist/, runs the scenario, and exits by itself once both mocks are closed', async () => {
    const run = await runNode('run-scenario.mjs');
    expect(run.signal, `killed after ${EXIT_BOUND_MS} ms: something kept the process alive\n${run.stderr}`).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim()) as { summary: unknown; resolved: string };
    expect(out.resolved).toMatch(/\/dist\/testing\.js$/);
    expect(out.summary).toEqual({
      distinctUrls: true,
      listed: 2,
      delivered: { eventName: 'Items.Sku.Created', verified: true },
    });
  });
});
