/** Replicas on one Redis sign with one webhook key (../webhook-key.ts), against a real redis-server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../common/redis-server.js';
import { redisAvailability, type RedisServer } from '../../../test/support/redis.js';
import type { MockOptions } from '../../options.js';
import { buildMock, type Mock } from '../../server.js';

const availability = redisAvailability();
const SHARED = { host: '10.0.0.7', rateLimit: null, jwtSecret: 'replica-webhook-key-jwt-secret-0123456789' } as const;
const OTHER_KEY = 'another-webhook-key-of-a-replica-0123456789';

describe.skipIf(!availability.run)('the webhook key of replicas on one Redis (--redis)', () => {
  let redis: RedisServer;
  const built: Mock[] = [];
  const replica = async (options: Partial<MockOptions> = {}) => {
    const mock = await buildMock({ ...SHARED, redis: redis.url, ...options });
    built.push(mock);
    return mock;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
  }, 20_000);

  afterAll(async () => {
    for (const mock of built) await mock.close();
    await redis?.stop();
  });

  it("is the first replica's random key: every replica gives a tenant the same secret", async () => {
    const first = await replica();
    const second = await replica();
    // A replica on loopback joining them reads the shared key too, not the published default.
    const local = await replica({ host: '127.0.0.1' });
    const secret = first.control.tenant('acme').webhookSecret();
    expect(secret).toMatch(/^whsec_[0-9a-f]{40}$/);
    expect(second.control.tenant('acme').webhookSecret()).toBe(secret);
    expect(local.control.tenant('acme').webhookSecret()).toBe(secret);
    expect(first.control.tenant('beta').webhookSecret()).not.toBe(secret);
  });

  it('refuses a replica started with another --webhook-key, naming the flag and never the key', async () => {
    const started = replica({ webhookKey: OTHER_KEY });
    await expect(started).rejects.toMatchObject({ name: 'SharedModeError' });
    await expect(started).rejects.toThrow(/another --webhook-key; start every replica with the same one/);
    await expect(started).rejects.not.toThrow(OTHER_KEY);
  });
});
