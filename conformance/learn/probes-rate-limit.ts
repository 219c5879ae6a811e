import { setTimeout as sleep } from 'node:timers/promises';
import { burstPastTheLimit } from '../observe/rate-limit-burst.js';
import { indicatedDelay } from '../wire/retry-delay.js';
import { listSpec } from '../helpers.js';
import { plainLists, type Probe } from './probe.js';

/**
 * How a 429 tells its retry delay (Limits: "the header or field carrying the retry delay: not shown"): from a 429 a
 * target answers when asked with `Prefer: code=429` (mocks honour it; a real deployment ignores it), and from a real
 * burst past the rate limit, bounded like the runner's probe (`observe/rate-limit-burst.ts`). The burst's answer wins:
 * it is the one clients meet. The delay is read in every form in common use (`wire/retry-delay.ts`).
 */

/** Longest wait for the tenant's limit to recover after the burst (the delay told, or a second). */
const MAX_RECOVERY_MS = 15_000;

const forced: Probe = {
  name: 'forced 429',
  kind: 'read',
  points: () => ['retry-delay'],
  async run(p) {
    const op = plainLists()[0];
    if (!op) return;
    const ex = await p.send({
      ...listSpec(op, op.path, { pageSize: 1 }),
      headers: { prefer: 'code=429' },
      honour429: false,
    });
    if (ex.status !== 429) return;
    const header = indicatedDelay(ex)?.header;
    if (header) p.seen.record('retry-delay', header, ex);
  },
};

const burst: Probe = {
  name: 'rate limit',
  kind: 'rate-limit',
  points: () => ['retry-delay'],
  async run(p) {
    const { sent, limited } = await burstPastTheLimit(p.run, 'learn');
    if (!limited) {
      if (!p.seen.has('retry-delay'))
        p.seen.cannot('retry-delay', `no 429 after ${sent} requests (--rate-limit-max-requests/-seconds)`);
      return;
    }
    const delay = indicatedDelay(limited);
    if (delay?.header) p.seen.record('retry-delay', delay.header, limited, true);
    else p.seen.cannot('retry-delay', 'the 429 carries no header with a retry delay');
    // The tenant's limit recovers before the run ends (clean-up and a following run meet no 429).
    await sleep(Math.min(MAX_RECOVERY_MS, (delay?.ms ?? 1000) + 50));
  },
};

/** The forced 429 runs with the reads; the burst last of all, so it slows nothing else. */
export const FORCED_429 = forced;
export const BURST = burst;
