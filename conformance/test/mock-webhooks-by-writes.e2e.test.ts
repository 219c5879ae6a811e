import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims, startMockServer, type RunningMock } from '../../index.js';
import { runConformance } from '../orchestration/runner.js';
import type { Report } from '../types.js';

/**
 * The faithful mock through both ways the webhook scenario causes a notification: its admin API
 * (`POST /__mock/events`, one subscription), and, with the admin API off, as against any server: the receiver
 * subscribed to every event offered, the documented writes, the stored notification found by what the target shows.
 * Every webhook, subscription and isolation check passes either way.
 */

let mock: RunningMock;

beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});

afterAll(async () => {
  await mock?.close();
});

const FAMILIES = ['webhooks', 'writes.subscription*', 'isolation'];
const notPassed = (report: Report) =>
  report.checks.filter((c) => c.outcome !== 'pass').map((c) => `${c.outcome} ${c.id}: ${c.reason ?? ''}`);

describe('the webhook scenario on the faithful mock', () => {
  it('passes through the admin API', async () => {
    const report = await runConformance({ baseUrl: mock.url, allowWrites: true, webhooks: true, only: FAMILIES });
    expect(notPassed(report)).toEqual([]);
  }, 60_000);

  it('passes without it: every event subscribed, the writes cause the notification', async () => {
    const tenant = mock.control.tenant('conform-by-writes');
    const other = mock.control.tenant('conform-by-writes-other');
    const report = await runConformance({
      baseUrl: mock.url,
      useMockAdmin: false,
      token: await tenant.token(adminClaims('conform-by-writes')),
      otherTenantToken: await other.token(adminClaims('conform-by-writes-other')),
      data: tenant.fixtures(),
      webhookSecret: tenant.webhookSecret(),
      allowWrites: true,
      webhooks: true,
      only: FAMILIES,
    });
    expect(notPassed(report)).toEqual([]);
    const success = report.checks.find((c) => c.id === 'webhooks.notification-success');
    expect(success?.info?.join('\n')).toMatch(/matched to its delivery by/);
  }, 60_000);
});
