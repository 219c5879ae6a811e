/**
 * The rate-limit probe against targets 50 ms away (a deployment across a network): its concurrency ramps until it
 * meets the limit, a fixed window as well as the mock's token bucket, and the recovery waits the delay the 429
 * indicates in whatever form it comes (Errors / Status and code pairs: "the caller retries after the indicated delay";
 * Limits: the header or field is not shown).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMock } from '../../index.js';
import { runConformance } from '../orchestration/runner.js';
import type { Report } from '../types.js';
import { startFixedWindowTarget, type FixedWindowTarget } from './support/fixed-window-target.js';

const MUST = ['rate-limit.429', 'rate-limit.parameters', 'rate-limit.recovery'];
/** The probe's bounds (count and time) for these tests. */
const BOUNDS = { rateLimitMaxRequests: 3000, rateLimitMaxSeconds: 10 };

const outcome = (report: Report, id: string) => report.checks.find((c) => c.id === id);

describe('a fixed window (400 per 2 s) 50 ms away, the delay only in X-RateLimit-Reset-After-Ms', () => {
  let target: FixedWindowTarget;
  let report: Report;

  beforeAll(async () => {
    target = await startFixedWindowTarget({ limit: 400, windowMs: 2000, latencyMs: 50 });
    report = await runConformance({
      baseUrl: target.url,
      token: 'fixed-window-token',
      rateLimitProbe: true,
      only: ['rate-limit'],
      ...BOUNDS,
    });
  }, 30_000);

  afterAll(async () => {
    await target?.close();
  });

  it('meets the limit and passes the 429 MUST checks', () => {
    for (const id of MUST) expect(outcome(report, id)?.outcome, `${id}: ${outcome(report, id)?.reason}`).toBe('pass');
    expect(target.answered.limited).toBeGreaterThan(0);
    // Far fewer than the bound: the probe stops promptly after the first 429 (those in flight may still come back).
    expect(target.answered.ok + target.answered.limited).toBeLessThan(BOUNDS.rateLimitMaxRequests);
  });

  it('says where the delay came from, and waits it (not a second by default)', () => {
    const info = outcome(report, 'rate-limit.recovery')?.info?.join('\n') ?? '';
    expect(info).toMatch(/X-RateLimit-Reset-After-Ms header \(milliseconds\)/);
    const waited = Number(/Waited (\d+) ms/.exec(info)?.[1]);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(2000);
  });

  it('still asks for Retry-After as a SHOULD, naming the header the delay was in', () => {
    const should = outcome(report, 'rate-limit.retry-after');
    expect(should?.level).toBe('SHOULD');
    expect(should?.outcome).toBe('fail');
    expect(JSON.stringify(should?.evidence)).toMatch(/X-RateLimit-Reset-After-Ms/);
  });
});

describe('the mock at its default limit (a 300/s token bucket) with 50 ms of latency', () => {
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, latency: { min: 50, max: 50 } });
  });

  afterAll(async () => {
    await mock?.close();
  });

  it('is met by the probe, and every rate-limit check passes', async () => {
    const report = await runConformance({ baseUrl: mock.url, rateLimitProbe: true, only: ['rate-limit'], ...BOUNDS });
    for (const c of report.checks) expect(c.outcome, `${c.id}: ${c.reason}`).toBe('pass');
    expect(outcome(report, 'rate-limit.recovery')?.info?.join('\n')).toMatch(/Retry-After header \(seconds\)/);
  }, 30_000);
});
