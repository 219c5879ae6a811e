import type { RetryDelay, RetryDelayUnit } from '../../spec/decisions/index.js';
import type { Clock } from '../clock.js';
import type { PayloadHook } from '../http/decorator.js';

/** The header the mock tells a 429's delay in, in whole seconds (mock/http/steps/rate-limit.ts; inferred, docs/DESIGN.md, "Defaults for what the reference leaves open"). */
const MOCK_HEADER = 'retry-after';

/**
 * A delay of `seconds` from `nowMs` written in `unit`. The instants (`epoch-seconds`, `http-date`) are whole
 * seconds, rounded up so that a client waiting until then never retries early.
 */
function retryDelayValue(unit: RetryDelayUnit, seconds: number, nowMs: number): string {
  const at = Math.ceil(nowMs / 1000) + seconds;
  switch (unit) {
    case 'seconds':
      return String(seconds);
    case 'milliseconds':
      return String(seconds * 1000);
    case 'epoch-seconds':
      return String(at);
    case 'http-date':
      return new Date(at * 1000).toUTCString();
  }
}

/** Adds `header` to the headers a browser may read (CORS), where the answer lists them. */
function expose(reply: Parameters<PayloadHook>[1], header: string): void {
  const exposed = reply.getHeader('access-control-expose-headers');
  if (typeof exposed !== 'string') return;
  const names = exposed.split(',').map((n) => n.trim().toLowerCase());
  if (!names.includes(header)) reply.header('access-control-expose-headers', `${exposed},${header}`);
}

/**
 * Decision point `retry-delay`: the header that carries a 429's retry delay and its unit (Limits: "the header or
 * field carrying the retry delay: not shown"), as one `onSend` hook that moves the mock's `Retry-After: <seconds>`
 * there, in that unit; `Retry-After` itself is then not sent. Null when the decision is the mock's own header and
 * unit (`adoptedOf` leaves those out): no hook.
 */
export function retryDelayHook(delay: RetryDelay | undefined, clock: Clock): PayloadHook | null {
  if (!delay) return null;
  const header = delay.header.toLowerCase();
  return async function adoptedRetryDelay(_req, reply, payload) {
    if (reply.statusCode !== 429) return payload;
    const value = reply.getHeader(MOCK_HEADER);
    const seconds = Number(value);
    if (value === undefined || !Number.isFinite(seconds)) return payload;
    reply.removeHeader(MOCK_HEADER);
    reply.header(header, retryDelayValue(delay.unit, seconds, clock.now()));
    expose(reply, header);
    return payload;
  };
}
