import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../../common/receiver.js';
import { adminClaims } from '../../auth/presets.js';
import type { MockOptions } from '../../options.js';
import { freshOrg, injectHarness } from '../../test/harness.js';
import { BLOCKED_EXCERPT } from '../address.js';
import { attempts, emit, notification, subscribe, type Tenant } from './support.js';

const EVENT = 'Warehouse.Shipment.Shipped';

/**
 * A mock that would bind a non-loopback address (built, never bound: it answers through `app.inject()`), delivering
 * to a real receiver on loopback: the SSRF guard is on by default there, and `--allow-private-endpoints` opts out.
 */
async function deliverFrom(options: Partial<MockOptions>, endpoints: (port: number) => string[]) {
  const h = await injectHarness({ host: '0.0.0.0', deliveryTimeoutMs: 1000, retrySchedule: [0], ...options });
  const receiver = await startReceiver();
  try {
    const org = freshOrg('ssrf');
    const token = await h.token(adminClaims(org));
    const t: Tenant = { org, token, call: (method, path, o = {}) => h.call(method, path, { token, ...o }) };
    for (const endpoint of endpoints(receiver.port)) await subscribe(t, endpoint, EVENT);
    const { notifications } = await emit(t, EVENT);
    await h.mock.control.idle();
    const outcomes = [];
    for (const id of notifications) {
      const n = await notification(t, id);
      const [attempt] = await attempts(t, id);
      outcomes.push({ endpoint: n.endpoint ?? n.subscriptionId, status: n.status, attempt });
    }
    return { outcomes, received: receiver.received.length };
  } finally {
    await h.close();
    await receiver.close();
  }
}

describe('private webhook endpoints of a mock on a non-loopback host', () => {
  it('are blocked by default: no connection, an excerpt that only says so', async () => {
    const { outcomes, received } = await deliverFrom({}, (port) => [
      `http://127.0.0.1:${port}/hook`,
      `http://localhost:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
    ]);
    expect(received).toBe(0);
    expect(outcomes).toHaveLength(3);
    for (const { status, attempt } of outcomes) {
      expect(status).toBe('Failure');
      expect(attempt).toMatchObject({
        errorKind: 'BlockedEndpoint',
        responseStatus: null,
        responseBodyExcerpt: BLOCKED_EXCERPT,
      });
    }
  });

  it('are reached when --allow-private-endpoints names their host, and only those', async () => {
    const { outcomes, received } = await deliverFrom({ allowPrivateEndpoints: collect(['localhost']) }, (port) => [
      `http://localhost:${port}/hook`,
      `http://127.0.0.1:${port}/hook`,
    ]);
    expect(received).toBe(1);
    expect(outcomes.map((o) => o.attempt.errorKind).sort()).toEqual(['BlockedEndpoint', null].sort());
  });

  it('are all reached with --allow-private-endpoints alone', async () => {
    const { outcomes, received } = await deliverFrom({ allowPrivateEndpoints: collect(['all']) }, (port) => [
      `http://127.0.0.1:${port}/hook`,
    ]);
    expect(received).toBe(1);
    expect(outcomes[0]?.attempt).toMatchObject({ success: true, errorKind: null });
  });
});

/** The option as `startMock` and the CLI resolve it. */
function collect(items: string[]): MockOptions['allowPrivateEndpoints'] {
  return { all: items.includes('all'), cidrs: [], hosts: items.filter((i) => i !== 'all') };
}
