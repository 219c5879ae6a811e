import { expected } from '../decided.js';
import { retryDelayOf } from '../retry-delay.js';
import { retryAfterMs, type Exchange } from '../client.js';
import { burstPastTheLimit } from '../rate-limit-burst.js';
import type { CheckContext, CheckDef } from '../context.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { problemOf } from '../helpers.js';

const CODE = 'COMMON.RATE_LIMIT.EXCEEDED';

interface Probe {
  sent: number;
  elapsedMs: number;
  limited?: Exchange;
  recovery?: Exchange;
  waitedMs?: number;
}

/**
 * The probe (bounded by `--rate-limit-max-requests` and `--rate-limit-max-seconds`): cheap requests from parallel
 * workers until the first 429, then one request after the indicated delay. On a mock it runs in a tenant of its own.
 */
function probe(c: CheckContext): Promise<Probe> {
  return c.run.memo('rate-limit:probe', async () => {
    const burst = await burstPastTheLimit(c.run, 'rate-limit');
    const { spec } = burst;
    const deadline = Date.now() - burst.elapsedMs + c.run.options.rateLimitMaxSeconds * 1000;
    const result: Probe = {
      sent: burst.sent,
      elapsedMs: burst.elapsedMs,
      ...(burst.limited ? { limited: burst.limited } : {}),
    };
    if (!result.limited) return result;
    // Recovery: wait the indicated delay (1 s when none is indicated), at most twice.
    for (let attempt = 0; attempt < 2; attempt++) {
      const wait = Math.min(
        retryAfterMs(result.limited.headers['retry-after']) ?? 1000,
        Math.max(1000, deadline + 10_000 - Date.now()),
      );
      result.waitedMs = (result.waitedMs ?? 0) + wait;
      await sleep(wait + 50);
      result.recovery = await c.run.client.send('rate-limit', spec, false);
      if (result.recovery.status !== 429) break;
    }
    return result;
  });
}

async function limited(c: CheckContext): Promise<{ p: Probe; ex: Exchange }> {
  const p = await probe(c);
  if (!p.limited)
    c.skip(
      `no 429 after ${p.sent} requests in ${(p.elapsedMs / 1000).toFixed(1)} s (raise --rate-limit-max-requests or --rate-limit-max-seconds)`,
    );
  return { p, ex: p.limited };
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
        c.exercised(`after ${p.sent} requests`);
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
          ex.headers['retry-after'] ?? '(none)',
        );
      },
    },
    {
      ...base,
      id: 'rate-limit.recovery',
      title: 'After the indicated delay, requests succeed again',
      clause: 'Limits',
      level: 'MUST',
      async run(c) {
        const { p } = await limited(c);
        c.exercised(`waited ${p.waitedMs} ms`);
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
