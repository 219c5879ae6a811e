import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../spec/operations/index.js';
import { browserAvailability, isLocal, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { startHarness, type Harness } from './harness.js';

const availability = browserAvailability();

describe.skipIf(!availability.run)('the /docs page in headless Chromium', () => {
  let h: Harness;
  let browser: TestBrowser;

  beforeAll(async () => {
    h = await startHarness();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('lists every operation of the contract and makes no request outside loopback', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (req) => {
      if (!isLocal(req.url())) outside.push(req.url());
    });
    await page.goto(`${h.url}/docs`, { waitUntil: 'networkidle', timeout: 30_000 });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const listed = await page.$$eval('.opblock .opblock-summary-path', (nodes) =>
      nodes.map((n) => (n.getAttribute('data-path') ?? n.textContent ?? '').replace(/\u200b/g, '').trim()),
    );
    const methods = await page.$$eval('.opblock .opblock-summary-method', (nodes) =>
      nodes.map((n) => (n.textContent ?? '').trim().toLowerCase()),
    );
    const seen = new Set(listed.map((path, i) => `${methods[i]} ${path}`));
    for (const op of OPERATIONS) expect(seen, `${op.method} ${op.path}`).toContain(`${op.method} ${op.path}`);
    expect(await page.title()).toMatch(/swagger|operations/i);
    expect(outside).toEqual([]);
    await page.close();
  }, 60_000);
});
