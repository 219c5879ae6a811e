import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startIndependentServer,
  type IndependentServer,
  type IndependentTenant,
} from '../../test/support/independent-server/index.js';
import type { ConformOptions } from '../context.js';
import { runConformance } from '../runner.js';
import type { Report } from '../types.js';

/**
 * The webhook, subscription and isolation checks against a second implementation of the API written from the
 * reference alone (test/support/independent-server/). Where the reference says "not shown" it decides otherwise than
 * the mock: the page envelope on the events and versions lists, event names of its own (its stock update emits
 * `Warehouse.StockLevel.Changed` v2), its own payload (`eventId`, `event`, ...) and event id header (`X-Webhook-Id`),
 * 200 for subscription create, delete and retry, 422 for the subscription errors. Every documented fact holds, so no
 * MUST check of these families may fail or skip; its planted signature faults are caught.
 */

let server: IndependentServer;
let acme: IndependentTenant;
let globex: IndependentTenant;

beforeAll(async () => {
  server = await startIndependentServer();
  acme = await server.tenant('acme');
  globex = await server.tenant('globex');
});

afterAll(async () => {
  await server?.close();
});

function options(tenant: IndependentTenant): ConformOptions {
  return {
    baseUrl: server.url,
    token: tenant.token,
    limitedToken: tenant.limitedToken,
    otherTenantToken: globex.token,
    data: tenant.data,
    webhookSecret: tenant.webhookSecret,
    allowWrites: true,
    webhooks: true,
    certify: false,
  };
}

const FAMILIES = ['webhooks', 'writes.subscription*', 'isolation'];

const ids = (report: Report, level: string, outcomes: string[]) =>
  report.checks
    .filter((c) => c.level === level && outcomes.includes(c.outcome))
    .map((c) => `${c.id}: ${c.reason ?? c.evidence[0]?.message ?? ''}`);

describe('webhooks, subscriptions and isolation of a server written from the reference alone', () => {
  it('has no MUST failure and no MUST skip; what it decides differently fails at SHOULD only', async () => {
    const report = await runConformance({ ...options(acme), only: FAMILIES });
    expect(ids(report, 'MUST', ['fail', 'error'])).toEqual([]);
    expect(ids(report, 'MUST', ['skip'])).toEqual([]);
    const musts = report.checks.filter((c) => c.level === 'MUST').map((c) => c.id);
    expect(musts).toEqual(
      expect.arrayContaining([
        'writes.subscription-lifecycle',
        'writes.subscription-event-not-found',
        'writes.subscription-invalid-url',
        'webhooks.delivery',
        'webhooks.signature',
        'webhooks.notification-success',
        'webhooks.attempts',
        'webhooks.manual-retry',
        'isolation.lists',
        'isolation.reads',
        'isolation.writes',
      ]),
    );
    const should = report.checks.filter((c) => c.level === 'SHOULD' && c.outcome === 'fail').map((c) => c.id);
    expect(should).toEqual(
      expect.arrayContaining([
        'writes.subscription-answers',
        'writes.subscription-event-not-found-400',
        'webhooks.payload',
        'webhooks.event-id',
        'webhooks.manual-retry-recorded',
      ]),
    );
    // Its notification was found by what the target shows, not by the mock's field names.
    const success = report.checks.find((c) => c.id === 'webhooks.notification-success');
    expect(success?.info?.join('\n')).toMatch(/matched to its delivery by/);
  }, 60_000);

  for (const fault of ['signature-uppercase-hex', 'signature-reserialised']) {
    it(`${fault} -> webhooks.signature`, async () => {
      // A tenant of its own: its subscriptions and notifications stay apart from the other runs'.
      const tenant = await server.tenant(`fault-${fault}`);
      server.setFaults([fault]);
      try {
        const report = await runConformance({ ...options(tenant), only: ['webhooks.signature'] });
        const check = report.checks.find((c) => c.id === 'webhooks.signature');
        expect(check?.outcome, JSON.stringify(check)).toBe('fail');
        expect(check?.level).toBe('MUST');
        expect(check?.evidence[0]?.message).toMatch(/does not verify on the raw body/);
        expect(report.exitCode).toBe(1);
      } finally {
        server.setFaults([]);
      }
    }, 60_000);
  }
});
