import type { Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../spec/operations/index.js';
import { browserAvailability, isLocal, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { startHarness, type Harness } from './harness.js';

const availability = browserAvailability();

/** `METHOD /path` of every operation a document has. */
function operationsOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`))
    .sort();
}

/** `METHOD /path` of every operation block the page shows. */
async function shownOperations(page: Page): Promise<string[]> {
  const paths = await page.$$eval('.opblock .opblock-summary-path', (nodes) =>
    nodes.map((n) => (n.getAttribute('data-path') ?? n.textContent ?? '').replace(/\u200b/g, '').trim()),
  );
  const methods = await page.$$eval('.opblock .opblock-summary-method', (nodes) =>
    nodes.map((n) => (n.textContent ?? '').trim().toLowerCase()),
  );
  return paths.map((path, i) => `${methods[i]} ${path}`).sort();
}

describe('a mock on a random port', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('serves /openapi.json and /__mock/openapi.json with its own origin first in servers', async () => {
    for (const path of ['/openapi.json', '/__mock/openapi.json']) {
      const res = await request(`${h.url}${path}`);
      expect(res.statusCode).toBe(200);
      const doc = (await res.body.json()) as { servers: { url: string }[] };
      expect(doc.servers[0]?.url, path).toBe(h.url);
    }
  });
});

/** The page that also proves /docs works offline: no request of the page leaves loopback (checked last). */
describe.skipIf(!availability.run)('the /docs page of a mock on a random port, in headless Chromium', () => {
  let h: Harness;
  let browser: TestBrowser;
  let page: Page;
  const outside: string[] = [];

  beforeAll(async () => {
    h = await startHarness();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('request', (req) => {
      if (!isLocal(req.url())) outside.push(req.url());
    });
    await page.goto(`${h.url}/docs`, { waitUntil: 'networkidle', timeout: 30_000 });
    await page.waitForSelector('.opblock', { timeout: 30_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it("offers this mock's origin as the server to call", async () => {
    expect(await page.inputValue('.servers select')).toBe(h.url);
  });

  it('offers two definitions, the contract shown first with every operation', async () => {
    expect(await page.title()).toMatch(/swagger|operations/i);
    const options = await page.$$eval('.topbar select option', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(options).toEqual(['Operations Platform API (/openapi.json)', 'Mock admin API (/__mock/openapi.json)']);
    const contract = (await (await request(`${h.url}/openapi.json`)).body.json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    // The page also shows the contract's `webhooks` (requests the service sends) as operation blocks.
    const shown = await shownOperations(page);
    expect(shown).toEqual(expect.arrayContaining(operationsOf(contract)));
    for (const op of OPERATIONS) expect(shown, `${op.method} ${op.path}`).toContain(`${op.method} ${op.path}`);
  }, 60_000);

  it('shows every admin route once the admin API is chosen, and calls this mock from "Try it out"', async () => {
    await page.selectOption('.topbar select', { label: 'Mock admin API (/__mock/openapi.json)' });
    await page.waitForSelector('.opblock-summary-path[data-path="/__mock/health"]', { timeout: 30_000 });
    const admin = (await (await request(`${h.url}/__mock/openapi.json`)).body.json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(await shownOperations(page)).toEqual(operationsOf(admin));

    const health = page.locator('.opblock', { has: page.locator('.opblock-summary-path[data-path="/__mock/health"]') });
    await health.locator('.opblock-summary').click();
    await health.locator('button.execute').click();
    const status = health.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor({ timeout: 30_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await health.locator('.request-url pre').first().textContent()).toBe(`${h.url}/__mock/health`);
    expect(outside).toEqual([]);
  }, 60_000);
});
