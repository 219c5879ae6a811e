import type { RetryDelay } from '../spec/decisions/index.js';

/** Headers that may carry a retry delay, in the order they are looked for. */
const DELAY_HEADERS = [
  'retry-after',
  'x-ratelimit-reset',
  'ratelimit-reset',
  'x-rate-limit-reset',
  'x-retry-after',
  'x-retry-after-ms',
];

/** How the headers commonly used for a retry delay are spelt (names are case-insensitive; files keep one spelling). */
const CANONICAL: Record<string, string> = {
  'retry-after': 'Retry-After',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
  'ratelimit-reset': 'RateLimit-Reset',
  'x-rate-limit-reset': 'X-Rate-Limit-Reset',
  'x-retry-after': 'X-Retry-After',
  'x-retry-after-ms': 'X-Retry-After-Ms',
};

/** The header and unit of a 429's retry delay, read from its headers. */
export function retryDelayOf(headers: Record<string, string>, now = Date.now()): RetryDelay | undefined {
  const names = [...DELAY_HEADERS, ...Object.keys(headers).filter((h) => /retry|reset/i.test(h))];
  for (const name of names) {
    const value = headers[name]?.trim();
    if (!value) continue;
    const header =
      CANONICAL[name] ?? name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`);
    if (/^\d+$/.test(value)) {
      const n = Number(value);
      if (n > 1e9 && n < 1e11) return { header, unit: 'epoch-seconds' };
      return { header, unit: /ms|milli/i.test(name) || n > 100_000 ? 'milliseconds' : 'seconds' };
    }
    if (!Number.isNaN(Date.parse(value)) && Date.parse(value) > now - 60_000) return { header, unit: 'http-date' };
  }
  return undefined;
}
