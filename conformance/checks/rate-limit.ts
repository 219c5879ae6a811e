import { expected } from '../contract/decided.js';
import { indicatedDelay, retryDelayOf, type IndicatedDelay } from '../wire/retry-delay.js';
import { retryAfterMs, type Exchange } from '../wire/client.js';
import { burstPastTheLimit, type Burst } from '../observe/rate-limit-burst.js';
import type { CheckContext, CheckDef } from '../context.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { problemOf } from '../helpers.js';

const CODE = 'COMMON.RATE_LIMIT.EXCEEDED';

/** The wait when a 429 indicates no delay in any form known (inferred: the reference gives no window). */
const UNTOLD_WAIT_MS = 1000;

/** Recovery requests after the first 429: a second one waits the delay its own 429 indicated. */
const RECOVERY_ATTEMPTS = 2;

interface Probe {
  burst: Burst;
  limited?: Exchange;
  /** The delay the first 429 indicated, and where (undefined: none in a form known). */
  delay?: IndicatedDelay;
  recovery?: Exchange;
  waitedMs?: number;
}

/**
 * The probe (bounded by `--rate-limit-max-requests` and `--rate-limit-max-seconds`): requests ramping in concurrency
 * until the first 429 (`observe/rate-limit-burst.ts`), then one request after the indicated delay (Errors / Status and
 * code pairs: "the caller retries after the indicated delay"; Limits: the header or field carrying it is not shown, so
 * it is read from any common form, `wire/retry-delay.ts`). On a mock it runs in a tenant of its own.
 */
function probe(c: CheckContext): Promise<Probe> {
  return c.run.memo('rate-limit:probe', async () => {
    const burst = await burstPastTheLimit(c.run, 'rate-limit');
    const { spec } = burst;
    const deadline = Date.now() - burst.elapsedMs + c.run.options.rateLimitMaxSeconds * 1000;
    const result: Probe = { burst };
    if (!burst.limited) return result;
    result.limited = burst.limited;
    const delay = indicatedDelay(burst.limited);
    if (delay) result.delay = delay;
    // Recovery: wait the indicated delay (a second when none is indicated), at most twice.
    let told = delay;
    for (let attempt = 0; attempt < RECOVERY_ATTEMPTS; attempt++) {
      const wait = Math.min(told?.ms ?? UNTOLD_WAIT_MS, Math.max(1000, deadline + 10_000 - Date.now()));
      result.waitedMs = (result.waitedMs ?? 0) + wait;
      await sleep(wait + 50);
      result.recovery = await c.run.client.send('rate-limit', spec, false);
      if (result.recovery.status !== 429) break;
      told = indicatedDelay(result.recovery);
    }
    return result;
  });
}

async function limited(c: CheckContext): Promise<{ p: Probe; ex: Exchange }> {
  const p = await probe(c);
  const { sent, elapsedMs, peakInFlight } = p.burst;
  if (!p.limited)
    c.skip(
      `no 429 after ${sent} requests in ${(elapsedMs / 1000).toFixed(1)} s, up to ${peakInFlight} in flight (raise --rate-limit-max-requests or --rate-limit-max-seconds)`,
    );
  return { p, ex: p.limited };
}

/** How the burst met the limit, for the report. */
function metAfter(b: Burst): string {
  const to = b.toLimit ?? { sent: b.sent, ms: b.elapsedMs };
  return `after ${to.sent} requests in ${(to.ms / 1000).toFixed(1)} s, up to ${b.peakInFlight} in flight`;
}

const base = { family: 'rate-limit' as const, requires: ['rateLimitProbe' as const], phase: 'alone' as const };

export function rateLimitChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'rate-limit.429',
      title: 'Exceeding the rate limit gives 429 COMMON.RATE_LIMIT.EXCEEDED',
      clause: 'Limits; Errors / Status and code pairs (429)',
      level: 'MUST',
      async run(c) {
        const { p, ex } = await limited(c);
        c.exercised();
        c.inform(`The limit was met ${metAfter(p.burst)}`);
        const b = problemOf(ex);
        c.expect(b?.code === CODE, 'the 429 code', ex, CODE, String(b?.code));
        c.expect(
          typeof b?.type === 'string' && b.type.endsWith(`/errors/${CODE}`),
          'the 429 type',
          ex,
          `…/errors/${CODE}`,
          String(b?.type),
        );
      },
    },
    {
      ...base,
      id: 'rate-limit.parameters',
      title: 'The 429 problem carries `parameters`',
      clause: 'Errors / Problem body (parameters on 429)',
      level: 'MUST',
      async run(c) {
        const { ex } = await limited(c);
        c.exercised();
        const b = problemOf(ex);
        c.expect(
          typeof b?.parameters === 'object' && b.parameters !== null && !Array.isArray(b.parameters),
          'the 429 problem has no parameters object',
          ex,
          'parameters: {}',
          JSON.stringify(b?.parameters),
        );
      },
    },
    {
      ...base,
      id: 'rate-limit.retry-after',
      title: 'The 429 tells the delay in Retry-After (or the header observed, under --decisions)',
      clause: 'Limits ("retries after the indicated delay"; the header is not stated)',
      level: 'SHOULD',
      async run(c) {
        const { ex } = await limited(c);
        c.exercised();
        const delay = expected<'retry-delay'>(c.run, 'retry-delay', { header: 'Retry-After', unit: 'seconds' });
        if (delay.header.toLowerCase() !== 'retry-after') {
          // Observed at the deployment (--decisions): the delay in another header, in its unit.
          const seen = retryDelayOf(ex.headers);
          c.expect(
            seen?.header.toLowerCase() === delay.header.toLowerCase() && seen.unit === delay.unit,
            `no usable ${delay.header} header (${delay.unit})`,
            ex,
            `${delay.header}: <${delay.unit}>`,
            seen ? `${seen.header}: <${seen.unit}>` : '(none)',
          );
          return;
        }
        c.expect(
          retryAfterMs(ex.headers['retry-after']) !== undefined,
          'no usable Retry-After header',
          ex,
          'Retry-After: <seconds> or an HTTP date',
          ex.headers['retry-after'] ??
            `(none; the delay is in the ${indicatedDelay(ex)?.source ?? 'answer in no form known'})`,
        );
      },
    },
    {
      ...base,
      id: 'rate-limit.recovery',
      title: 'After the indicated delay, requests succeed again',
      clause: 'Errors / Status and code pairs (429: "the caller retries after the indicated delay"); Limits',
      level: 'MUST',
      async run(c) {
        const { p } = await limited(c);
        // Any form of the delay will do (the reference does not say which header or field carries it).
        c.exercised();
        c.inform(
          p.delay
            ? `Waited ${p.waitedMs} ms: the delay the ${p.delay.source} indicated`
            : `Waited ${p.waitedMs} ms: the 429 indicates no retry delay in a form the runner knows (Retry-After, RateLimit-Reset, X-RateLimit-Reset[-After][-Ms], a retryAfter member of the problem)`,
        );
        c.expect(
          p.recovery !== undefined && p.recovery.status >= 200 && p.recovery.status < 300,
          `still refused after waiting ${p.waitedMs} ms`,
          p.recovery,
          '2xx',
          String(p.recovery?.status),
        );
      },
    },
  ];
}
