/** Replicas on one Redis sign with one webhook key (../webhook-key.ts), against a real redis-server. */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../auth/tokens.js';
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

  /** Flushes Redis, as a restart without persistence does: the replicas find out on their next request. */
  const loseRedisData = async () => {
    const client = new Redis(redis.url);
    await client.flushall();
    client.disconnect();
  };

  /** A request of `org` to the replica until it is answered: the first after a loss is a 503 (the loss noticed). */
  const notice = async (mock: Mock, org: string) => {
    const token = await mintToken(SHARED.jwtSecret, { org, roles: ['App.Admin'] });
    for (let i = 0; i < 5; i++) {
      const res = await mock.app.inject({
        method: 'GET',
        url: '/v1/admin/tenants/self',
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.statusCode === 200) return;
    }
    throw new Error('the replica kept refusing the request after the loss');
  };

  it('after Redis lost its data, keeps the key when a replica of before claims it first: receivers keep their secrets', async () => {
    const first = await replica();
    const before = first.control.tenant('keep').webhookSecret();
    await loseRedisData();
    await notice(first, 'keep');
    const later = await replica();
    expect(first.control.tenant('keep').webhookSecret()).toBe(before);
    expect(later.control.tenant('keep').webhookSecret()).toBe(before);
  });

  it('after Redis lost its data, joins the key of a replica started on the empty Redis: every replica signs alike', async () => {
    const first = await replica();
    const second = await replica();
    const before = first.control.tenant('join').webhookSecret();
    await loseRedisData();
    // Started before the others found out: Redis held no key, so its own random one became the shared one.
    const later = await replica();
    const after = later.control.tenant('join').webhookSecret();
    expect(after).not.toBe(before);
    await notice(first, 'join');
    await notice(second, 'join');
    expect(first.control.tenant('join').webhookSecret()).toBe(after);
    expect(second.control.tenant('join').webhookSecret()).toBe(after);
  });

  it('refuses a replica started with another --webhook-key, naming the flag and never the key', async () => {
    const started = replica({ webhookKey: OTHER_KEY });
    await expect(started).rejects.toMatchObject({ name: 'ReplicationConfigError' });
    await expect(started).rejects.toThrow(/another --webhook-key; start every replica with the same one/);
    await expect(started).rejects.not.toThrow(OTHER_KEY);
  });
});
