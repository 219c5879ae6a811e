import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailability, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { startHarness, type Harness } from './harness.js';

const availability = browserAvailability();

/** A page of another origin (another loopback port): a web page the developer happens to have open. */
async function otherOrigin(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>another site</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, url: `http://localhost:${port}` };
}

/** What a `fetch` of the page got: the status it could read, or that the browser would not let it read one. */
function fetchFrom(page: Page, url: string, token: string, method = 'GET'): Promise<string> {
  return page.evaluate(
    async ({ url, token, method }) => {
      try {
        const res = await fetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: '{}' } : {}),
        });
        return String(res.status);
      } catch {
        return 'unreadable';
      }
    },
    { url, token, method },
  );
}

describe.skipIf(!availability.run)("a loopback mock's admin API in headless Chromium", () => {
  let other: { server: Server; url: string };
  let h: Harness;
  let allowing: Harness;
  let browser: TestBrowser;

  beforeAll(async () => {
    other = await otherOrigin();
    h = await startHarness();
    allowing = await startHarness({ corsOrigin: [other.url] });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    await allowing?.close();
    await new Promise((resolve) => other?.server.close(resolve));
  });

  it("answers the mock's own pages", async () => {
    const page = await browser.newPage();
    // Any document the mock serves has its origin. Its health answer is one the browser shows without running a script
    // (the /docs page, which calls the mock from "Try it out", is mock/test/docs-port-browser.e2e.test.ts; the page
    // behind a problem type forbids its own scripts any request).
    await page.goto(`${h.url}/__mock/health`, { waitUntil: 'domcontentloaded' });
    expect(await fetchFrom(page, '/__mock/clock', h.admin)).toBe('200');
    expect(await fetchFrom(page, '/__mock/reset', h.admin, 'POST')).toBe('200');
  });

  it('refuses a page of another origin, which reads nothing, and reaches /v1 as before', async () => {
    const page = await browser.newPage();
    await page.goto(other.url, { waitUntil: 'domcontentloaded' });
    expect(await fetchFrom(page, `${h.url}/__mock/clock`, h.admin)).toBe('unreadable');
    expect(await fetchFrom(page, `${h.url}/__mock/reset`, h.admin, 'POST')).toBe('unreadable');
    expect(await fetchFrom(page, `${h.url}/v1/items/skus?pageSize=1`, h.admin)).toBe('200');
  });

  it('answers a page whose origin --cors-origin names', async () => {
    const page = await browser.newPage();
    await page.goto(other.url, { waitUntil: 'domcontentloaded' });
    expect(await fetchFrom(page, `${allowing.url}/__mock/clock`, allowing.admin)).toBe('200');
  });
});
