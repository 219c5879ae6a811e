import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisAvailability } from '../../../test/support/redis.js';
import { call, type Cluster, EVENT, startCluster, stopCluster, tenantToken } from './replica-helpers.js';

const MAX_PENDING = 10;
const MAX_SUBSCRIPTIONS = 5;
const availability = redisAvailability();

/**
 * The per-tenant bounds hold across replicas (--redis): the subscription bound is checked on the tenant's log as every
 * replica reads it, and the Pending bound is applied by the replica that fans an event out, its endings appended to
 * the log and their attempts taken off the shared schedule.
 */
describe.skipIf(!availability.run)('per-tenant bounds on two replicas of one Redis', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    // The first attempt is due in an hour: every notification stays Pending unless the bound ends it.
    cluster = await startCluster(2, [
      '--retry-schedule',
      '3600',
      '--max-pending-notifications',
      String(MAX_PENDING),
      '--max-subscriptions',
      String(MAX_SUBSCRIPTIONS),
    ]);
  }, 60_000);
  afterAll(() => stopCluster(cluster));

  it('refuses the subscription beyond the bound on either replica and keeps at most the bound Pending', async () => {
    const token = await tenantToken();
    const org = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).org as string;
    const base = cluster.balancer.url;
    const body = { endpoint: 'https://example.test/hook', eventName: EVENT, eventVersion: 1 };
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++)
      expect((await call(base, token, 'POST', '/v1/notifications/webhook/subscriptions', body)).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const refused = await call(base, token, 'POST', '/v1/notifications/webhook/subscriptions', body);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('COMMON.TENANT.PLAN_LIMIT_EXCEEDED');
    }

    const made: string[] = [];
    for (let i = 0; i < 6; i++) {
      const emitted = await call(base, token, 'POST', '/__mock/events', { eventName: EVENT });
      expect(emitted.status).toBe(202);
      made.push(...emitted.body.notifications);
    }
    expect(made).toHaveLength(6 * MAX_SUBSCRIPTIONS);
    const backends = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const page = await call(base, token, 'GET', '/v1/notifications/webhook?pageSize=100');
      backends.add(String(page.backend));
      const pending = page.body.results.filter((n: { status: string }) => n.status === 'Pending');
      expect(pending.map((n: { id: string }) => n.id)).toEqual(made.slice(-MAX_PENDING));
      const ended = page.body.results.filter((n: { failureReason: string | null }) => n.failureReason);
      expect(ended).toHaveLength(made.length - MAX_PENDING);
    }
    expect(backends.size).toBe(2);

    // The ended notifications' attempts are off the shared schedule: only the Pending ones are scheduled.
    const redis = new Redis(cluster.redis.url);
    try {
      expect(await redis.hlen(`opsapi:t:{${org}}:jobs`)).toBe(MAX_PENDING);
    } finally {
      redis.disconnect();
    }
  });
});
