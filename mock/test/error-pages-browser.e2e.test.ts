import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogEntry } from '../../spec/errors/index.js';
import { browserAvailability, isLocal, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { startHarness, type Harness } from './harness.js';

const availability = browserAvailability();

describe.skipIf(!availability.run)('the page behind a problem type URI in headless Chromium', () => {
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

  it('reads as a page about the code, links to its JSON and to /docs, and loads nothing from elsewhere', async () => {
    // A real problem: a read-only caller updates stock (Authentication, point 4).
    const problem = await h.call('PUT', '/v1/items/skus/ANY/stock', {
      token: h.limited,
      body: { locationReference: 'L', stock: 1 },
    });
    expect(problem.status).toBe(403);
    const type = problem.body.type as string;
    const record = catalogEntry('COMMON.AUTH.MISSING_PERMISSIONS')!;

    const page = await browser.newPage();
    const outside: string[] = [];
    const complaints: string[] = [];
    page.on('request', (req) => {
      if (!isLocal(req.url())) outside.push(req.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') complaints.push(message.text());
    });
    try {
      const response = await page.goto(type, { waitUntil: 'load', timeout: 30_000 });
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.title()).toBe(`${record.code}: ${record.title}`);
      expect(await page.textContent('#title')).toBe(record.title);
      expect(await page.textContent('#code')).toBe(record.code);
      expect(await page.textContent('#status')).toBe('403 Forbidden');
      expect(await page.textContent('#description')).toBe(record.description);
      const keys = await page.$$eval('#parameters tbody tr td:first-child', (cells) => cells.map((c) => c.textContent));
      expect(keys).toEqual(record.parameters.map((p) => p.key));
      expect(await page.$eval('#docs', (a) => (a as unknown as { href: string }).href)).toBe(`${h.url}/docs`);
      // The page itself loaded cleanly (checked before leaving it: the browser then asks the JSON's origin for a favicon).
      expect(complaints).toEqual([]);

      await Promise.all([page.waitForURL(/format=json$/, { timeout: 30_000 }), page.click('#json')]);
      const json = JSON.parse((await page.textContent('body')) ?? '') as { code: string; status: number };
      expect(json).toMatchObject({ code: record.code, status: 403 });

      expect(outside).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
