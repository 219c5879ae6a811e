/**
 * The HTML coverage report of `opsapi coverage --report cov.html`, written by the CLI from a real mock's coverage
 * and opened from a file in headless Chromium with no network: per operation, the answers the client's suite met
 * and the ones it never saw, as sentences.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMockServer, type RunningMock } from '../../index.js';
import { browserAvailability, isLocal, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { opsapi } from './run-cli.js';

const browser = browserAvailability();

describe.skipIf(!browser.run)('the HTML coverage report in a browser', () => {
  let mock: RunningMock;
  let chromium: TestBrowser;
  let page: Page;
  const external: string[] = [];
  const dialogs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-coverage-html-'));

  /** The text of the section of one operation. */
  const section = async (operationId: string) => (await page.locator(`#op-${operationId}`).textContent()) ?? '';

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: null });
    const tenant = mock.control.tenant(`coverage-html-${process.pid}`);
    const token = await tenant.token();
    const m = tenant.fixtures();
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${mock.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
    expect(
      (
        await call('PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
          locationReference: m.sku.locationReference,
          lotId: m.sku.lotId,
          stock: 3,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await call('PUT', `/v1/items/skus/${m.sku.reference}/stock`, {
          locationReference: m.sku.locationReference,
          stock: 1,
          stockUnitOfMeasureId: m.unknownUnitOfMeasureId,
        })
      ).status,
    ).toBe(422);
    expect((await call('GET', '/v1/items/skus')).status).toBe(200);
    const file = join(dir, 'cov.html');
    const run = await opsapi([
      'coverage',
      '--base-url',
      `${mock.url}/`,
      '--token',
      token,
      '--report',
      file,
      '--operations',
      'updateSkuStock,listSkus,getTenantSelf',
      '--min-pairs',
      '100%',
    ]);
    expect(run.code, run.stderr).toBe(1);
    chromium = await launchChromium();
    page = await chromium.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !isLocal(r.url())) external.push(r.url());
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pathToFileURL(file).href);
  }, 90_000);

  afterAll(async () => {
    await chromium?.close();
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says at the top how much was covered and which minimum was not reached', async () => {
    const header = (await page.locator('header').textContent()) ?? '';
    expect(header).toContain('Operations called: 2 of 3 (66.6%).');
    expect(header).toContain('UNDER A MINIMUM');
    expect(header).toMatch(
      /pairs \d+(\.\d)?% < 100%: never saw 400 on PUT \/v1\/items\/skus\/\{skuReference\}\/stock \(updateSkuStock\)/,
    );
  });

  it('tells which answers of the stock update the client met, and which it never handled', async () => {
    const text = await section('updateSkuStock');
    expect(text).toContain('PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)');
    expect(text).toContain('Called 2 times; met 2 of 8 declared answers.');
    expect(text).toContain('Your client met 204 on PUT /v1/items/skus/{skuReference}/stock once.');
    expect(text).toContain(
      'Your client met 422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED on PUT /v1/items/skus/{skuReference}/stock once.',
    );
    expect(text).toContain('Your client never handled 429 on PUT /v1/items/skus/{skuReference}/stock.');
    expect(text).toContain(
      'Your client never handled 422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED on PUT /v1/items/skus/{skuReference}/stock.',
    );
  });

  it('marks an operation never called, and shows only the operations asked for', async () => {
    expect(await section('getTenantSelf')).toContain('Never called; none of its 3 declared answers met.');
    expect(await page.locator('section.untouched').count()).toBe(1);
    expect(await page.locator('section.operation').count()).toBe(3);
    expect(await page.locator('#op-createApiKey').count()).toBe(0);
  });

  it('tells met answers from missing ones by more than colour: a mark before each', async () => {
    const marks = await page.evaluate<string[]>(
      `[...document.querySelectorAll('#op-updateSkuStock li')].map((li) => getComputedStyle(li, '::before').content)`,
    );
    expect(new Set(marks.map((mark) => mark.replace(/["\s]/g, '')))).toEqual(new Set(['✓', '✗']));
  });

  it('ran no script and loaded nothing from outside the file', () => {
    expect(dialogs).toEqual([]);
    expect(external).toEqual([]);
  });
});
