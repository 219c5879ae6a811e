import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureFreshDist } from './support/fresh-dist.js';
import { type CommandRun, runCommand } from './support/run-command.js';

const root = fileURLToPath(new URL('../', import.meta.url));
/** Generous: the run takes about a second; a process kept alive by a leaked handle never ends on its own. */
const EXIT_BOUND_MS = 60_000;

/** What `jest --json` prints on stdout (the fields read here). */
interface JestReport {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message: string }[];
}

/**
 * Runs Jest in ESM mode on examples/jest as the README says (`node --experimental-vm-modules
 * node_modules/jest/bin/jest.js`), with `--json` for a report to read; resolves with how it ended.
 */
function runJest(): Promise<CommandRun> {
  const args = [
    '--experimental-vm-modules',
    'node_modules/jest/bin/jest.js',
    '--rootDir',
    'examples/jest',
    '--config',
    'examples/jest/jest.config.mjs',
    '--ci',
    '--json',
  ];
  return runCommand(process.execPath, args, { cwd: root, timeoutMs: EXIT_BOUND_MS });
}

describe('the README Jest example', () => {
  beforeAll(async () => {
    // Jest resolves `opsapi/testing` to dist/ (the package's default export condition), as a client project does.
    await ensureFreshDist(root);
  }, 300_000);

  it('passes both its tests against the compiled kit, and Jest exits by itself once the mock is closed', async () => {
    const run = await runJest();
    expect(run.signal, `killed after ${EXIT_BOUND_MS} ms: something kept Jest alive\n${run.stderr}`).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JestReport;
    expect(report.testResults.map((r) => [r.name.slice(root.length), r.status])).toEqual([
      ['examples/jest/stock.test.mjs', 'passed'],
    ]);
    expect(report).toMatchObject({ success: true, numTotalTests: 2, numPassedTests: 2 });
  });
});
