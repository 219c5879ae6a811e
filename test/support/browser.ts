import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, the only browser the tests use (no browser downloads). */
export const CHROMIUM = '/usr/bin/chromium';

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

/** Launches headless Chromium with the flags that keep it off the network. */
export function launchChromium(): Promise<Browser> {
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
