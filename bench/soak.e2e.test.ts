import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { compileEntry } from '../test/support/compiled-cli.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Runs `npm run soak -- <args>`: the soak runner and its mock compiled like the CLI the e2e layer compiles
 * (test/support/compiled-cli.ts), so the run spends no time in tsx's loader.
 */
async function run(
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const soak = await compileEntry('bench/soak.ts');
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout stops the soak and the mock it started as one.
    const child = spawn(process.execPath, [soak, ...args, '--cli', inject('opsapiCli')], {
      cwd: root,
      env: { ...process.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      reject(new Error(`soak did not finish within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run soak', () => {
  // The shortest run (1 s, after its 1 s warm-up) proves the harness: every kind of traffic, webhooks, the summary.
  it('runs 1 s of mixed traffic against a child mock with no unexpected error, no 5xx and valid signatures', async () => {
    const out = join(root, 'bench', `.soak-test-${process.pid}.json`);
    try {
      const { code, stdout, stderr } = await run(['--seconds', '1', '--out', out], 150_000);
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toMatch(/unexpected errors: 0\s+5xx: 0\s+signature failures: 0/);
      expect(stdout).toMatch(/health probe latency:\s+p50 [\d.]+ ms, p99 [\d.]+ ms/);
      expect(stdout).toMatch(/mock RSS:\s+start [\d.]+ MB/);
      expect(stdout).toContain('result: PASS');
      const result = JSON.parse(readFileSync(out, 'utf8')) as {
        requests: { total: number; byGroup: Record<string, number> };
        webhooks: { received: number; signatureFailures: number };
        passed: boolean;
      };
      expect(result.passed).toBe(true);
      expect(Object.keys(result.requests.byGroup).sort()).toEqual(['bad', 'read', 'webhook', 'write']);
      expect(result.webhooks.received).toBeGreaterThan(0);
      expect(result.webhooks.signatureFailures).toBe(0);
    } finally {
      if (existsSync(out)) rmSync(out);
    }
  }, 180_000);

  it('refuses bad arguments with exit code 2', async () => {
    const { code, stderr } = await run(['--seconds', '0'], 60_000);
    expect(code).toBe(2);
    expect(stderr).toMatch(/--seconds must be an integer from 1 to 3600/);
  }, 90_000);
});
