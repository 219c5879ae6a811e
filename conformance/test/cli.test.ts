import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailability, isLocal, launchChromium } from '../../test/support/browser.js';
import { freePort, startProcess, type Started } from '../../test/support/process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TSX = join(root, 'node_modules/.bin/tsx');
const CLI = join(root, 'cli/opsapi.ts');
const browser = browserAvailability();

/** Runs `opsapi <args>` to completion. */
function opsapi(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CLI, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`opsapi ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `opsapi mock` on a free port; the rate limit is the default one the probe is sized for (300/1s). */
async function mock(extra: string[] = []): Promise<{ process: Started; url: string }> {
  const port = await freePort();
  const started = await startProcess(TSX, [CLI, 'mock', '--port', String(port), '--rate-limit', '300/1s', '--quiet', ...extra], /http:\/\/127\.0\.0\.1:\d+/, { cwd: root, timeoutMs: 60_000 });
  return { process: started, url: `http://127.0.0.1:${port}` };
}

describe('opsapi conform (CLI)', () => {
  let faithful: { process: Started; url: string };
  let faulty: { process: Started; url: string };
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-conform-'));

  beforeAll(async () => {
    [faithful, faulty] = await Promise.all([mock(), mock(['--fault', 'auth-401-with-code'])]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([faithful?.process.stop(), faulty?.process.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('certifies the faithful mock: exit 0 and three reports that parse', async () => {
    const files = ['r.json', 'r.xml', 'r.html'].map((f) => join(dir, f));
    const run = await opsapi(['conform', '--base-url', faithful.url, '--allow-writes', '--webhooks', '--rate-limit-probe', '--certify', ...files.flatMap((f) => ['--report', f])]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('certification: CERTIFIED');
    for (const f of files) expect(existsSync(f), f).toBe(true);
    const report = JSON.parse(readFileSync(files[0] as string, 'utf8')) as { checks: { outcome: string }[]; exitCode: number; certified: boolean; tool: { version: string }; contractVersion: string };
    expect(report.exitCode).toBe(0);
    expect(report.certified).toBe(true);
    expect(report.checks.length).toBeGreaterThan(100);
    expect(report.checks.every((c) => c.outcome === 'pass')).toBe(true);
    const xml = readFileSync(files[1] as string, 'utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(xml.match(/<testsuite /g)?.length).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it.skipIf(!browser.run)('renders the HTML report in headless Chromium with the verdict, offline', async () => {
    const html = join(dir, 'r.html');
    expect(existsSync(html)).toBe(true);
    const chromium = await launchChromium();
    try {
      const page = await chromium.newPage({ viewport: { width: 1280, height: 900 } });
      const external: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith('file:') && !isLocal(r.url())) external.push(r.url());
      });
      await page.goto(pathToFileURL(html).href);
      expect(await page.locator('#verdict').textContent()).toBe('CERTIFIED');
      expect(await page.locator('h2').count()).toBeGreaterThan(10);
      const png = join(dir, 'report.png');
      await page.screenshot({ path: png, fullPage: false });
      const bytes = readFileSync(png);
      expect(statSync(png).size).toBeGreaterThan(1000);
      expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(external).toEqual([]);
    } finally {
      await chromium.close();
    }
  }, 60_000);

  it('exits 1 against a faulted mock (flags read from OPSAPI_* variables)', async () => {
    const run = await opsapi(['conform'], { OPSAPI_BASE_URL: faulty.url, OPSAPI_ONLY: 'auth' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+MUST\s+auth\.401-no-code/);
  }, 60_000);

  it('exits 2 for an unreachable target and for usage errors', async () => {
    const port = await freePort();
    const [unreachable, noBase, badNumber, badReport] = await Promise.all([
      opsapi(['conform', '--base-url', `http://127.0.0.1:${port}`]),
      opsapi(['conform'], { OPSAPI_BASE_URL: '' }),
      opsapi(['conform', '--base-url', faithful.url, '--concurrency', 'lots']),
      opsapi(['conform', '--base-url', faithful.url, '--report', join(dir, 'r.txt')]),
    ]);
    expect(unreachable.code, unreachable.stderr).toBe(2);
    expect(unreachable.stderr).toContain('unreachable');
    expect(noBase.code, noBase.stderr).toBe(2);
    expect(badNumber.code, badNumber.stderr).toBe(2);
    expect(badReport.code, badReport.stderr).toBe(2);
  }, 90_000);
});
