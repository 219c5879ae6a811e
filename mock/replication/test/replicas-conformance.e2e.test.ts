import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../../index.js';
import { redisAvailability } from '../../../test/support/redis.js';
import { type Cluster, startCluster, stopCluster } from './replica-helpers.js';

const availability = redisAvailability();

describe.skipIf(!availability.run)('the whole conformance run through two replicas on one Redis, round robin', () => {
  let cluster: Cluster;

  // The default rate (300/s per tenant, now over both replicas): the main run seldom meets it, the probe does.
  beforeAll(async () => {
    cluster = await startCluster(2, ['--rate-limit', '300/1s']);
  }, 60_000);
  afterAll(() => stopCluster(cluster));

  it('passes every check, writes, webhooks and the rate-limit probe included: the replicas act as one mock', async () => {
    const report = await runConformance({
      baseUrl: cluster.balancer.url,
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
