import type { RequestStep } from '../exchange.js';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `--latency`: waits a random time in the configured range before anything else (no wait, no promise, without it). */
export const latency: RequestStep = (_x, route) => {
  const range = route.services.options.latency;
  if (!range) return undefined;
  return sleep(range.min + Math.random() * (range.max - range.min)).then(() => undefined);
};
