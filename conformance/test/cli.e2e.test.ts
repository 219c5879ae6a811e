import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailability, isLocal, launchChromium } from '../../test/support/browser.js';
import { freePort, type Started } from '../../common/process.js';
import { mockProcess as mock, opsapi } from './support/cli.js';

const browser = browserAvailability();

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
    const run = await opsapi([
      'conform',
      '--base-url',
      faithful.url,
      '--allow-writes',
      '--webhooks',
      '--rate-limit-probe',
      '--certify',
      ...files.flatMap((f) => ['--report', f]),
    ]);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('certification: CERTIFIED');
    for (const f of files) expect(existsSync(f), f).toBe(true);
    const report = JSON.parse(readFileSync(files[0] as string, 'utf8')) as {
      checks: { id: string; outcome: string; reason?: string }[];
      exitCode: number;
      certified: boolean;
      mustRan: number;
      mustTotal: number;
      tool: { version: string };
      contractVersion: string;
      mockAdmin: boolean;
    };
    expect(report.exitCode).toBe(0);
    // It used the admin API of the mock: a fresh tenant, minted tokens, the fixtures.
    expect(report.mockAdmin).toBe(true);
    expect(report.contractVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(report.tool.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(run.stdout).not.toContain('\u001b[');
    expect(readFileSync(files[2] as string, 'utf8')).toContain('id="verdict">CERTIFIED<');
    expect(report.certified).toBe(true);
    expect(report.mustRan).toBe(report.mustTotal);
    expect(run.stdout).toContain(`${report.mustTotal} of ${report.mustTotal} MUST checks ran`);
    expect(report.checks.length).toBeGreaterThan(100);
    expect(
      report.checks.filter((c) => c.outcome !== 'pass').map((c) => `${c.outcome} ${c.id}: ${c.reason ?? ''}`),
    ).toEqual([]);
    const xml = readFileSync(files[1] as string, 'utf8');
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    expect(xml.match(/<testsuite /g)?.length).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it.skipIf(!browser.run)(
    'renders the HTML report in headless Chromium with the verdict, offline',
    async () => {
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
    },
    60_000,
  );

  it('exits 1 against a faulted mock (flags read from OPSAPI_* variables)', async () => {
    const run = await opsapi(['conform'], { OPSAPI_BASE_URL: faulty.url, OPSAPI_ONLY: 'auth' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+MUST\s+auth\.401-no-code/);
  }, 60_000);

  it('waits --delivery-timeout for a webhook delivery, and says so in the failure', async () => {
    // The mock delivers to another server (which takes it: the notification settles at once), so the run's own
    // receiver never gets the POST.
    const elsewhere = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const args = ['conform', '--base-url', faithful.url, '--webhooks', '--only', 'webhooks.delivery'];
      const { port } = elsewhere.address() as AddressInfo;
      const run = await opsapi([
        ...args,
        '--webhook-public-url',
        `http://127.0.0.1:${port}/hook`,
        '--delivery-timeout',
        '300',
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(1);
      expect(run.stdout).toContain('no delivery within 0.3 s');
      const refused = await opsapi([...args, '--delivery-timeout', '5']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/--delivery-timeout/);
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  }, 60_000);

  it('exits 2 for an unreachable target and for usage errors', async () => {
    const port = await freePort();
    const [unreachable, noBase, badNumber, badReport, badPace] = await Promise.all([
      opsapi(['conform', '--base-url', `http://127.0.0.1:${port}`]),
      opsapi(['conform'], { OPSAPI_BASE_URL: '' }),
      opsapi(['conform', '--base-url', faithful.url, '--concurrency', 'lots']),
      opsapi(['conform', '--base-url', faithful.url, '--report', join(dir, 'r.txt')]),
      opsapi(['conform', '--base-url', faithful.url, '--pace', '-1']),
    ]);
    expect(unreachable.code, unreachable.stderr).toBe(2);
    expect(unreachable.stderr).toContain('unreachable');
    expect(noBase.code, noBase.stderr).toBe(2);
    expect(badNumber.code, badNumber.stderr).toBe(2);
    expect(badReport.code, badReport.stderr).toBe(2);
    expect(badPace.code, badPace.stderr).toBe(2);
    expect(badPace.stderr).toMatch(/--pace/);
  }, 90_000);
});
