import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../../common/receiver.js';
import { startRedisServer } from '../../../common/redis-server.js';
import { redisAvailability } from '../../../test/support/redis.js';
import { call, EVENT, type Replica, startReplica, tenantToken, until } from './replica-helpers.js';

/** A replica killed while making an attempt, and a Redis that lost its data: what a replicated mock does then. */
const availability = redisAvailability();

describe.skipIf(!availability.run)('an attempt under way on a replica that dies (the at-least-once window)', () => {
  it('is made again by another replica once its claim lapses, and recorded once', async () => {
    const redis = await startRedisServer();
    let first: Replica | undefined;
    let second: Replica | undefined;
    // The first request hangs (the replica making it is killed meanwhile); later ones succeed.
    const receiver = await startReceiver((d) => (d.index === 0 ? 'hang' : { status: 200 }));
    try {
      first = await startReplica(redis.url);
      const token = await tenantToken();
      await call(first.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
        endpoint: `${receiver.url}/hook`,
        eventName: EVENT,
        eventVersion: 1,
      });
      const emitted = await call(first.url, token, 'POST', '/__mock/events', { eventName: EVENT });
      await receiver.waitForCount(1, 5000);
      first.process.child.kill('SIGKILL');
      second = await startReplica(redis.url);
      // The claim lasts the delivery timeout (1 s) + 5 s; then the second replica makes the attempt.
      await receiver.waitForCount(2, 12_000);
      const id = emitted.body.notifications[0];
      await until(
        async () =>
          (await call(second!.url, token, 'GET', `/v1/notifications/webhook/${id}`)).body.status === 'Success',
        3000,
        'notification Success',
      );
      const attempts = await call(second.url, token, 'GET', `/v1/notifications/webhook/${id}/attempts`);
      expect(attempts.body.results).toHaveLength(1);
      expect(receiver.count).toBe(2);
    } finally {
      await receiver.close();
      await first?.process.stop();
      await second?.process.stop();
      await redis.stop();
    }
  }, 30_000);
});

/**
 * One Redis and one replica serve the two tests below (inferred: a replica process and a Redis of their own for each
 * proved nothing more): the loss first, after which the replica serves the restarted Redis, then an outage of that one.
 */
describe.skipIf(!availability.run)('a Redis that goes away under a replica', () => {
  let redis: Awaited<ReturnType<typeof startRedisServer>>;
  let replica: Replica | undefined;
  let token: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    replica = await startReplica(redis.url);
    token = await tenantToken();
  }, 60_000);

  afterAll(async () => {
    await replica?.process.stop();
    await redis?.stop();
  });

  it('that lost its data (restarted without persistence) is noticed: the replica drops its copies (503 once), then serves the fresh state, never the stale one', async () => {
    const base = replica!.url;
    const key = await call(base, token, 'POST', '/v1/access/apiKeys', { name: 'before-the-loss' });
    expect(key.status).toBe(201);
    await redis.stop();
    redis = await startRedisServer({ port: redis.port });
    // The first request after Redis is back finds the loss out (until the reconnection, 503s as for any outage).
    await until(
      async () => (await call(base, token, 'GET', '/v1/admin/tenants/self')).status === 200,
      8000,
      'the replica answering again',
    );
    // The key lived only in the lost data: the replica's copy of the tenant must not accept it any more.
    const res = await request(`${base}/v1/admin/tenants/self`, { headers: { 'x-api-key': key.body.key } });
    expect(res.statusCode).toBe(401);
    await res.body.dump();
    expect(replica!.process.output()).toMatch(/Redis lost the shared state/);
  }, 30_000);

  it("that is down is named by its address in the 503's detail, not by the client library's words", async () => {
    const base = replica!.url;
    expect((await call(base, token, 'GET', '/v1/admin/tenants/self')).status).toBe(200);
    await redis.stop();
    let answer: Awaited<ReturnType<typeof call>> | undefined;
    await until(
      async () => {
        answer = await call(base, token, 'GET', '/v1/admin/tenants/self');
        return answer.status === 503;
      },
      8000,
      'a 503',
    );
    expect(answer?.body.detail).toBe(
      `The shared state is unavailable: Redis at 127.0.0.1:${redis.port} is unreachable.`,
    );
  }, 30_000);
});
