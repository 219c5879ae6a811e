import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, the only browser the tests use (no browser downloads). */
const CHROMIUM = '/usr/bin/chromium';

/**
 * Whether browser tests can run here. Where Chromium is absent they skip with a printed reason, except under
 * `CI=true`, where its absence is a failure (CI installs it: see .ci/run).
 */
export function browserAvailability(): { run: true } | { run: false; reason: string } {
  if (existsSync(CHROMIUM)) return { run: true };
  const reason = `${CHROMIUM} is not installed (apt-get install -y chromium); browser tests skipped`;
  if (process.env.CI === 'true') throw new Error(`${reason}, but CI=true requires them`);
  console.warn(reason);
  return { run: false, reason };
}

/** What a test gets: pages, each in a browser context of its own, and `close()` for those contexts. */
export interface TestBrowser {
  newPage(options?: Parameters<Browser['newContext']>[0]): Promise<Page>;
  close(): Promise<void>;
}

let shared: Promise<Browser> | undefined;

/** Headless Chromium with the flags that keep it off the network. */
function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/**
 * A browser for one test file: pages in contexts of their own (no cookie, storage or cache shared with another
 * file) of ONE Chromium per test worker, started on first use. Why (inferred; measured): a launch costs ~1.5 s of
 * CPU, and six files open pages. The Chromium ends with its worker: Playwright drives it over a pipe, which closes
 * when the worker exits, and it closes it on exit itself; a crashed one is launched again on the next use.
 */
export async function launchChromium(): Promise<TestBrowser> {
  if (!shared) {
    shared = launch();
    shared.then(
      (browser) => browser.on('disconnected', () => (shared = undefined)),
      () => (shared = undefined),
    );
  }
  const browser = await shared;
  const contexts: BrowserContext[] = [];
  return {
    async newPage(options) {
      const context = await browser.newContext(options);
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      await Promise.all(contexts.splice(0).map((context) => context.close()));
    },
  };
}

/** Whether a URL the page requested stays on this machine. */
export function isLocal(url: string): boolean {
  if (url.startsWith('data:') || url.startsWith('blob:') || url.startsWith('about:')) return true;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}
