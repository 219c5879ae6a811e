import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startChild } from '../../common/process.js';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';
import { opsapi, ROOT, stderrLines, type CliRun } from './run-cli.js';

/** A bad value as the CLI reports it: exit 2, one line naming the option, no stack trace, no output. */
function expectRefused(run: CliRun, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(stderrLines(run), run.stderr).toHaveLength(1);
  expect(run.stderr).toMatch(says);
  expect(run.stderr).not.toContain('    at ');
  expect(run.stdout).toBe('');
}

describe('opsapi mock --cache-mb', () => {
  it.each([
    { what: 'zero', value: '0' },
    { what: 'a fraction', value: '1.5' },
    { what: 'a word', value: 'lots' },
    { what: 'more than 1 TB', value: '1048577' },
  ])('refuses $what in one line and exits 2', async ({ value }) => {
    expectRefused(
      await opsapi(['mock', '--port', '0', '--cache-mb', value]),
      /--cache-mb <n>' argument .* is invalid\. expected an integer from 1 to 1048576/,
    );
  });

  it('refuses a bad OPSAPI_CACHE_MB the same way', async () => {
    expectRefused(
      await opsapi(['mock', '--port', '0'], { env: { OPSAPI_CACHE_MB: '-1' } }),
      /from env 'OPSAPI_CACHE_MB' is invalid/,
    );
  });

  it('is listed by --help', async () => {
    const run = await opsapi(['mock', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--cache-mb <n> +list cache budget in MB over all tenants/);
  });

  it('sets the budget the banner and GET /__mock/stats show', async () => {
    const child = startChild(process.execPath, opsapiNodeArgs(['mock', '--port', '0', '--cache-mb', '3']), {
      cwd: ROOT,
      name: 'opsapi mock',
      killOnExit: true,
    });
    try {
      const url = (await child.waitFor(/listening on (http:\/\/\S+)/, 30_000))[1];
      expect(child.output()).toMatch(/list caches: +3 MB over all tenants, 0\.75 MB per tenant\n/);
      const stats = await request(`${url}/__mock/stats`);
      const body = (await stats.body.json()) as { listCaches: { limitBytes: number; usedBytes: number } };
      expect(body.listCaches.limitBytes).toBe(3 * 1024 * 1024);
      expect(body.listCaches.usedBytes).toBeLessThanOrEqual(body.listCaches.limitBytes);
    } finally {
      await child.stop();
    }
  });
});
