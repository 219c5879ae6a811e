import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshDist } from '../support/fresh-dist.js';
import { runCommand } from '../support/run-command.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
/** Generous: the scenario takes about a second; a process kept alive by a leaked handle never ends on its own. */
const EXIT_BOUND_MS = 60_000;

describe('opsapi/testing compiled, run by plain node', () => {
  beforeAll(async () => {
    // dist/ is built by `prepare` on `npm ci`; sources edited since then are compiled again first.
    await ensureFreshDist(root);
  }, 300_000);

  it('resolves the package name to dist/, runs the scenario, and exits by itself once both mocks are closed', async () => {
    const run = await runCommand(process.execPath, ['run-scenario.mjs'], { cwd: here, timeoutMs: EXIT_BOUND_MS });
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
