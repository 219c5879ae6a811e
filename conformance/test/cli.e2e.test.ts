import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { browserAvailability, isLocal, launchChromium } from '../../test/support/browser.js';
import { closedPort } from '../../common/closed-port.js';
import type { Started } from '../../test/support/process.js';
import type { Report } from '../types.js';
import { expectOneLineRefusal } from '../../test/support/cli-command.js';
import { type CliRun, mockProcess, opsapi } from './support/cli.js';

const browser = browserAvailability();

/** The mock's default limit, 300 requests per second per tenant (a token bucket), at which the tests run it. */
const RATE = { limit: 300, windowMs: 1000 };

describe('opsapi conform (CLI)', () => {
  // The CLI under test is a process of its own. The faithful target runs in this process (inferred: a mock process
  // proved nothing here that cli/test/ does not, and cost a start); its state is read below. The faulted target is an
  // `opsapi mock --fault` process: the one test of that flag through the CLI.
  let faithful: RunningMock;
  let faulty: { process: Started; url: string };
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-conform-'));
  const files = ['r.json', 'r.xml', 'r.html'].map((f) => join(dir, f));

  beforeAll(async () => {
    [faithful, faulty] = await Promise.all([
      startMockServer({ port: 0, rateLimit: RATE }),
      mockProcess(['--fault', 'auth-401-with-code']),
    ]);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([faithful?.close(), faulty?.process.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * The full certifying run of the faithful mock, once for the file: its exit code and reports are tested first, and
   * what it spent of each tenant's rate limit by the pacing tests below (inferred: a second full run, in process, for
   * those proved nothing more and cost ~2.5 s of CPU). With the tenants it made in the mock (none of them named by
   * the test: the run mints a fresh tenant through the admin API, as against any mock).
   */
  let certifying: Promise<{ run: CliRun; tenants: string[] }> | undefined;
  const certifyingRun = () =>
    (certifying ??= (async () => {
      const before = new Set(faithful.control.orgs());
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
      return { run, tenants: faithful.control.orgs().filter((org) => !before.has(org)) };
    })());

  it('certifies the faithful mock: exit 0 and three reports that parse', async () => {
    const { run } = await certifyingRun();
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
      verdict: { label: string; text: string };
      selection: { only: string[]; skip: string[]; notSelected: { MUST: number; SHOULD: number } };
    };
    expect(report.exitCode).toBe(0);
    expect(report.verdict.text).toBe('CERTIFIED: every MUST check ran and passed');
    expect(report.selection).toMatchObject({ only: [], skip: [], notSelected: { MUST: 0, SHOULD: 0 } });
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
      await certifyingRun();
      const html = files[2] as string;
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
    // Not asked to certify: the verdict reads as the exit code.
    expect(run.stdout).toMatch(/\n {2}verdict: FAILED: \d+ MUST checks? failed: [^\n]*auth\.401-no-code/);
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
    const port = await closedPort();
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

  it('refuses a --data file off its schema in one line naming every problem (exit 2)', async () => {
    const data = join(dir, 'data.json');
    const sku = { reference: 'S', inspectionIds: [], baseUnitOfMeasureId: 'u', alternativeUnitOfMeasureId: 'v' };
    writeFileSync(
      data,
      JSON.stringify({ sku: { ...sku, locationReference: 'L', lotId: 5 }, cancelledPurchaseOrderLine: {}, foo: 1 }),
    );
    const run = await opsapi(['conform', '--base-url', faithful.url, '--data', data]);
    expectOneLineRefusal(run, 'conform', /./);
    expect(run.stderr).toBe(
      `opsapi conform: --data ${data}: /sku/lotId: expected string; /cancelledPurchaseOrderLine/purchaseOrderId: required; /cancelledPurchaseOrderLine/lineId: required; /foo: unknown key\n`,
    );
  }, 60_000);

  /**
   * The certifying run is the whole run against the mock at its default limit, paced to it by the CLI's default
   * `--pace 300`: what it spent of each tenant's rate limit, read from the mock's coverage of the tenants it made.
   */
  describe('its full run, paced to the rate limit', () => {
    /** The run's main tenant: the one whose other tenant (`-other`) and rate-limit probe tenant (`-rl`) it made too. */
    async function mainTenant(): Promise<string> {
      const { tenants } = await certifyingRun();
      const main = tenants.find((org) => tenants.includes(`${org}-other`) && tenants.includes(`${org}-rl`));
      expect(main, `tenants the run made: ${tenants.join(', ')}`).toBeDefined();
      return main as string;
    }

    /** Requests a tenant answered (any status), and how many of them were 429s. */
    function spent(org: string): { requests: number; limited: number } {
      const coverage = faithful.control.tenant(org).coverage();
      return {
        requests: coverage.operations.reduce((n, op) => n + op.called, 0),
        limited: coverage.pairs.filter((p) => p.status === 429).reduce((n, p) => n + p.hit, 0),
      };
    }

    it('passes every check, the rate-limit probe included', async () => {
      const { run } = await certifyingRun();
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      const report = JSON.parse(readFileSync(files[0] as string, 'utf8')) as Report;
      expect(report.exitCode).toBe(0);
      expect(report.checks.filter((c) => c.outcome !== 'pass').map((c) => `${c.id}: ${c.reason}`)).toEqual([]);
    }, 120_000);

    it('meets no 429 in the main or the other tenant: only the probe, in a tenant of its own, does', async () => {
      const org = await mainTenant();
      expect(spent(org).limited).toBe(0);
      expect(spent(`${org}-other`).limited).toBe(0);
      expect(spent(`${org}-rl`).limited).toBeGreaterThan(0);
    }, 120_000);

    it('spends at most 1,000 requests of the main tenant, a share of the error catalog being read by the other', async () => {
      const org = await mainTenant();
      // Measured: about 940 (1,450 before the checks shared their reads and split the catalog).
      expect(spent(org).requests).toBeLessThanOrEqual(1000);
      const catalogReads = (tenant: string) =>
        faithful.control
          .tenant(tenant)
          .coverage({ operations: ['getError'] })
          .operations.reduce((n, op) => n + op.called, 0);
      expect(catalogReads(`${org}-other`)).toBeGreaterThan(200);
      expect(catalogReads(org)).toBeGreaterThan(200);
    }, 120_000);
  });
});
