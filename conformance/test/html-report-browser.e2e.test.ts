import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMockServer, type RunningMock } from '../../index.js';
import { browserAvailability, isLocal, launchChromium, type TestBrowser } from '../../test/support/browser.js';
import { htmlReport } from '../report/html.js';
import { runConformance } from '../orchestration/runner.js';
import type { Report } from '../types.js';

const browser = browserAvailability();

/** What a row of the report shows, read in the page. */
interface RowState {
  id: string;
  failing: boolean;
  visible: boolean;
}

/** Read in the page (the project compiles without the DOM library, so page code is a string). */
function rows(page: Page): Promise<RowState[]> {
  return page.evaluate(
    `[...document.querySelectorAll('tr.check')].map((tr) => ({ id: tr.id, failing: tr.classList.contains('failing'), visible: tr.offsetParent !== null }))`,
  );
}

/**
 * The HTML report of a real run against a mock with a planted fault (the 403 problems carry the wrong code), opened
 * from a file in headless Chromium with no network: the toggle and the links at the top work without any script.
 */
describe.skipIf(!browser.run)('the HTML report in a browser', () => {
  let mock: RunningMock;
  let report: Report;
  let chromium: TestBrowser;
  let page: Page;
  const external: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-html-'));

  beforeAll(async () => {
    mock = await startMockServer({
      port: 0,
      rateLimit: { limit: 300, windowMs: 1000 },
      faults: new Set(['forbidden-wrong-code']),
    });
    report = await runConformance({ baseUrl: mock.url, only: ['permissions', 'lists.defaults', 'auth.401-type'] });
    const file = join(dir, 'report.html');
    writeFileSync(file, htmlReport(report));
    chromium = await launchChromium();
    page = await chromium.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('request', (r) => {
      if (!r.url().startsWith('file:') && !isLocal(r.url())) external.push(r.url());
    });
    await page.goto(pathToFileURL(file).href);
  }, 90_000);

  afterAll(async () => {
    await chromium?.close();
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('comes from a run with failures and passes', () => {
    expect(report.checks.some((c) => c.outcome === 'fail')).toBe(true);
    expect(report.checks.some((c) => c.outcome === 'pass')).toBe(true);
  });

  it('lists the failing checks at the top, in the order of the rows', async () => {
    const links = await page.$$eval('#failing a', (as) => as.map((a) => a.getAttribute('href')));
    const failing = (await rows(page)).filter((r) => r.failing).map((r) => `#${r.id}`);
    expect(links.length).toBeGreaterThan(0);
    expect(links).toEqual(failing);
    expect(links).toContain('#check-permissions.403-code');
  });

  it('shows every check, then only the failures once "Show failures only" is ticked', async () => {
    const before = await rows(page);
    expect(before.every((r) => r.visible)).toBe(true);
    await page.getByLabel('Show failures only').check();
    const after = await rows(page);
    expect(after.filter((r) => r.visible).map((r) => r.id)).toEqual(after.filter((r) => r.failing).map((r) => r.id));
    expect(after.some((r) => !r.failing && !r.visible)).toBe(true);
    await page.getByLabel('Show failures only').uncheck();
    expect((await rows(page)).every((r) => r.visible)).toBe(true);
  });

  it('follows a link at the top to the row of its check', async () => {
    await page.click('#failing a[href="#check-permissions.403-code"]');
    expect(await page.evaluate('location.hash')).toBe('#check-permissions.403-code');
    const box = await page.evaluate<{ id: string; top: number; height: number }>(`(() => {
      const tr = document.querySelector('tr.check:target');
      return { id: tr.id, top: tr.getBoundingClientRect().top, height: window.innerHeight };
    })()`);
    expect(box.id).toBe('check-permissions.403-code');
    // Scrolled to the top of the view, within a pixel: rows of fractional height put it at e.g. -0.42.
    expect(box.top).toBeGreaterThan(-1);
    expect(box.top).toBeLessThan(box.height);
  });

  it('loaded nothing from outside the file', () => {
    expect(external).toEqual([]);
  });
});
