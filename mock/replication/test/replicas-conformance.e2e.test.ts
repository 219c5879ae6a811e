import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '../../../common/redis-server.js';
import { runConformance } from '../../../index.js';
import { redisAvailability } from '../../../test/support/redis.js';
import { type Replica, startReplica } from './replica-helpers.js';
import { type RoundRobin, startRoundRobin } from './round-robin.js';

const availability = redisAvailability();

describe.skipIf(!availability.run)('the whole conformance run through two replicas on one Redis, round robin', () => {
  let redis: RedisServer;
  let replicas: Replica[] = [];
  let balancer: RoundRobin;

  beforeAll(async () => {
    redis = await startRedisServer();
    // The default rate (300/s per tenant, now over both replicas): the main run seldom meets it, the probe does.
    replicas = await Promise.all([0, 1].map(() => startReplica(redis.url, ['--rate-limit', '300/1s'])));
    balancer = await startRoundRobin(replicas.map((r) => r.url));
  }, 60_000);

  afterAll(async () => {
    await balancer?.close();
    await Promise.all(replicas.map((r) => r.process.stop()));
    await redis?.stop();
  });

  it('passes every check, writes, webhooks and the rate-limit probe included: the replicas act as one mock', async () => {
    const report = await runConformance({
      baseUrl: balancer.url,
      allowWrites: true,
      webhooks: true,
      rateLimitProbe: true,
    });
    const failed = report.checks
      .filter((c) => c.outcome !== 'pass')
      .map((c) => `${c.id}: ${c.outcome} ${c.reason ?? JSON.stringify(c.evidence[0] ?? {})}`);
    expect(failed).toEqual([]);
    expect(report.checks.length).toBeGreaterThan(100);
  }, 120_000);
});
