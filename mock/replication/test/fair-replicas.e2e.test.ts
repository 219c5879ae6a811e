/**
 * Fair delivery with two replicas on one Redis (--redis): one tenant's receivers that never answer take only its
 * share of each replica's slots, another tenant's event is delivered meanwhile, and a reset made on one replica stops
 * the tenant's attempts on both. Real replica processes, receivers and redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type WebhookReceiver } from '../../../common/receiver.js';
import { redisAvailability } from '../../../test/support/redis.js';
import { replicationKeys } from '../keys.js';
import { connectRedis, type RedisLink } from '../redis-commands.js';
import { call, type Cluster, EVENT, startCluster, stopCluster, tenantToken, until } from './replica-helpers.js';

const availability = redisAvailability();

describe.skipIf(!availability.run)('fair delivery over tenants on two replicas', () => {
  let cluster: Cluster;
  let link: RedisLink;
  const receivers: WebhookReceiver[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));

  beforeAll(async () => {
    // 4 slots per replica, 2 per tenant, 1 per receiver of a tenant; attempts outlast the test unless released.
    cluster = await startCluster(2, ['--delivery-concurrency', '4', '--delivery-timeout', '15000']);
    link = await connectRedis(cluster.redis.url, () => undefined);
  }, 60_000);

  afterAll(async () => {
    release();
    await Promise.all(receivers.map((r) => r.close()));
    link?.client.disconnect();
    await stopCluster(cluster);
  });

  const count = (rs: readonly WebhookReceiver[]) => rs.reduce((n, r) => n + r.count, 0);
  /** Attempts waiting in the shared schedule or claimed by a replica. */
  const scheduled = async () => {
    const k = replicationKeys();
    const due = Number(await link.run('opsapiDueCount', [k.due], [k.prefix]));
    return due + (await link.client.zcard(k.leases));
  };

  it("delivers another tenant's event while one tenant's held attempts fill its share, and a reset on one replica stops the tenant on both", async () => {
    const { balancer } = cluster;
    const held = await Promise.all(
      Array.from({ length: 6 }, () =>
        startReceiver(async () => {
          await released;
          return { status: 200 };
        }),
      ),
    );
    const healthy = await startReceiver();
    receivers.push(...held, healthy);
    const noisy = await tenantToken();
    const quiet = await tenantToken();
    for (const r of held)
      for (let i = 0; i < 2; i++) {
        const sub = await call(balancer.url, noisy, 'POST', '/v1/notifications/webhook/subscriptions', {
          endpoint: r.url,
          eventName: EVENT,
          eventVersion: 1,
        });
        expect(sub.status, JSON.stringify(sub.body)).toBe(201);
      }
    for (let i = 0; i < 2; i++)
      expect((await call(balancer.url, noisy, 'POST', '/__mock/events', { eventName: EVENT })).status).toBe(202);
    // 24 notifications of the noisy tenant: each replica takes at most 2 of them (its share), never its 4 slots.
    await until(() => count(held) >= 2, 10_000, 'the noisy tenant’s first attempts');

    const sub = await call(balancer.url, quiet, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: healthy.url,
      eventName: EVENT,
      eventVersion: 1,
    });
    expect(sub.status).toBe(201);
    expect((await call(balancer.url, quiet, 'POST', '/__mock/events', { eventName: EVENT })).status).toBe(202);
    // Well before any noisy attempt could time out (15 s): before tenants were served in turn, the quiet tenant's
    // attempt was claimed behind the noisy backlog and waited for a slot a held attempt had.
    await healthy.waitForCount(1, 10_000);
    const underWay = count(held);
    expect(underWay).toBeGreaterThanOrEqual(2);
    expect(underWay).toBeLessThanOrEqual(4);
    // None of the noisy tenant's attempts ended: every one of its 24 notifications is still Pending.
    const pending = await call(
      balancer.url,
      noisy,
      'GET',
      `/v1/notifications/webhook?filterBy=${encodeURIComponent('status[Equals]Pending')}`,
    );
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(pending.body.totalCount).toBe(24);

    const reset = await call(balancer.url, noisy, 'POST', '/__mock/reset', {});
    expect(reset.status).toBe(200);
    const atAnswer = count(held);
    release();
    // Every claim ends (made, or dropped for the reset) and nothing of the tenant is left to claim...
    await until(async () => (await scheduled()) === 0, 20_000, 'an empty shared schedule');
    // ...and none of the 20 attempts still waiting reached a receiver after the reset was answered.
    expect(count(held)).toBe(atAnswer);
  });
});
