import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../common/closed-port.js';
import { startReceiver } from '../../../common/receiver.js';
import { startRedisServer } from '../../../common/redis-server.js';
import { expectOneLineRefusal, runOpsapi } from '../../../test/support/cli-command.js';
import type { RoundRobin } from './round-robin.js';
import {
  call,
  type Cluster,
  EVENT,
  perEvent,
  type Replica,
  SHARED,
  startCluster,
  startReplica,
  stopCluster,
  tenantToken,
  until,
} from './replica-helpers.js';
import { redisAvailability } from '../../../test/support/redis.js';

const availability = redisAvailability();
const dir = mkdtempSync(join(tmpdir(), 'opsapi-replicas-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!availability.run)('three replicas on one Redis behind a round-robin balancer (--redis)', () => {
  const redisDir = join(dir, 'redis-a');
  let cluster: Cluster;
  let replicas: Replica[];
  let balancer: RoundRobin;

  beforeAll(async () => {
    mkdirSync(redisDir, { recursive: true });
    // Persistent (an append-only file): the outage test restarts it on the same folder.
    cluster = await startCluster(3, [], { dir: redisDir });
    ({ replicas, balancer } = cluster);
  }, 60_000);

  afterAll(() => stopCluster(cluster));

  it('reads a write made on one replica on the next request, on each of the others', async () => {
    const token = await tenantToken();
    const fixtures = (await call(balancer.url, token, 'GET', '/__mock/fixtures')).body;
    const created = await call(balancer.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint: 'https://example.test/hook',
      eventName: EVENT,
      eventVersion: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const skuPath = `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${fixtures.sku.reference}`)}`;
    const totalBefore = (await call(balancer.url, token, 'GET', skuPath)).body.results[0].totalStock;
    const stock = await call(balancer.url, token, 'PUT', `/v1/items/skus/${fixtures.sku.reference}/stock`, {
      locationReference: fixtures.sku.locationReference,
      lotId: fixtures.sku.lotId,
      stock: 987_654,
    });
    expect(stock.status).toBe(204);

    const seenBy = new Set<string>();
    const totals = new Set<number>();
    for (let i = 0; i < 3; i++) {
      const sub = await call(balancer.url, token, 'GET', '/v1/notifications/webhook/subscriptions?pageSize=100');
      expect(
        sub.body.results.map((s: { id: string }) => s.id),
        `replica ${sub.backend}`,
      ).toContain(created.body.id);
      const skus = await call(balancer.url, token, 'GET', skuPath);
      totals.add(skus.body.results[0].totalStock);
      seenBy.add(String(sub.backend)).add(String(skus.backend));
    }
    expect(seenBy).toEqual(new Set(['0', '1', '2']));
    // One total, the same on every replica, and it counts the new stock (the location held less before).
    expect(totals.size).toBe(1);
    expect([...totals][0]).toBeGreaterThan(totalBefore);
    expect([...totals][0]).toBeGreaterThanOrEqual(987_654);

    // Ids made on different replicas never collide: each continues the tenant's one sequence.
    const ids = new Set([created.body.id]);
    for (let i = 0; i < 3; i++) {
      const next = await call(balancer.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
        endpoint: `https://example.test/hook/${i}`,
        eventName: EVENT,
        eventVersion: 1,
      });
      expect(next.status).toBe(201);
      ids.add(next.body.id);
    }
    expect(ids.size).toBe(4);
  });

  it('loses no write when every replica writes the same tenant at once (the lock serialises them)', async () => {
    const token = await tenantToken();
    // 36 writes: within the replicas' shared rate limit of 40 a minute.
    const perReplica = 12;
    const created = await Promise.all(
      replicas.flatMap((replica, r) =>
        Array.from({ length: perReplica }, (_, i) =>
          call(replica.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
            endpoint: `https://example.test/r${r}/${i}`,
            eventName: EVENT,
            eventVersion: 1,
          }),
        ),
      ),
    );
    expect(created.filter((c) => c.status !== 201).map((c) => JSON.stringify(c.body))).toEqual([]);
    const ids = new Set(created.map((c) => c.body.id as string));
    expect(ids.size).toBe(3 * perReplica);
    for (const replica of replicas) {
      const listed = await call(replica.url, token, 'GET', '/v1/notifications/webhook/subscriptions?pageSize=100');
      expect(new Set(listed.body.results.map((s: { id: string }) => s.id))).toEqual(ids);
    }
  });

  it('accepts an API key created on one replica on every other, including one that never saw the tenant', async () => {
    const token = await tenantToken();
    const key = await call(replicas[0]!.url, token, 'POST', '/v1/access/apiKeys', { name: 'ci' });
    expect(key.status).toBe(201);
    for (const replica of replicas.slice(1)) {
      const res = await request(`${replica.url}/v1/admin/tenants/self`, { headers: { 'x-api-key': key.body.key } });
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }
  });

  it('holds the rate limit across replicas: the configured total, not one per replica', async () => {
    const token = await tenantToken();
    let passed = 0;
    let limited = 0;
    const started = Date.now();
    for (let i = 0; i < 90; i++) {
      const res = await call(balancer.url, token, 'GET', '/v1/admin/tenants/self');
      if (res.status === 200) passed++;
      else {
        expect(res.status).toBe(429);
        expect(res.body.code).toBe('COMMON.RATE_LIMIT.EXCEEDED');
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        limited++;
      }
    }
    // 40 per minute in total, and the bucket refills 2/3 of a token a second while the loop runs (a limit per replica
    // would have let all 90 through).
    const refilled = Math.ceil(((Date.now() - started) / 1000) * (40 / 60));
    expect(passed).toBeGreaterThanOrEqual(40);
    expect(passed).toBeLessThanOrEqual(40 + refilled);
    expect(limited).toBe(90 - passed);
  });

  it('tells in /__mock/stats which replica answered and what waits in the shared schedule', async () => {
    const token = await tenantToken();
    const ids = new Set<string>();
    for (const replica of replicas) {
      const stats = await call(replica.url, token, 'GET', '/__mock/stats');
      expect(stats.status).toBe(200);
      expect(stats.body.replication.redis).toBe(cluster.redis.url);
      expect(stats.body.pendingDeliveries).toBe(stats.body.replication.due + stats.body.replication.claimed);
      ids.add(stats.body.replication.replica);
    }
    expect(ids.size).toBe(3);
  });

  it("moves a tenant's clock on every replica when one replica is told", async () => {
    const token = await tenantToken();
    const moved = await call(replicas[0]!.url, token, 'POST', '/__mock/clock', { advanceSeconds: 3600 });
    expect(moved.status).toBe(200);
    for (const replica of replicas.slice(1)) {
      const clock = await call(replica.url, token, 'GET', '/__mock/clock');
      expect(clock.body.offsetSeconds).toBe(3600);
    }
  });

  it('makes the attempts a clock jump makes due before the jump is answered, on whichever replica was told', async () => {
    const receiver = await startReceiver((d) => (d.index === 0 ? { status: 500 } : { status: 200 }));
    try {
      const token = await tenantToken();
      await call(replicas[0]!.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
        endpoint: `${receiver.url}/hook`,
        eventName: EVENT,
        eventVersion: 1,
      });
      const emitted = await call(replicas[1]!.url, token, 'POST', '/__mock/events', { eventName: EVENT });
      const id = emitted.body.notifications[0];
      await until(
        async () =>
          (await call(replicas[2]!.url, token, 'GET', `/v1/notifications/webhook/${id}/attempts`)).body.results
            .length === 1,
        5000,
        'the failed first attempt recorded',
      );
      // The retry is due 2 s later in tenant time: a jump of 60 s makes it due now.
      const jumped = await call(replicas[2]!.url, token, 'POST', '/__mock/clock', { advanceSeconds: 60 });
      expect(jumped.status).toBe(200);
      expect(receiver.count).toBe(2);
      const n = await call(replicas[0]!.url, token, 'GET', `/v1/notifications/webhook/${id}`);
      expect(n.body.status).toBe('Success');
    } finally {
      await receiver.close();
    }
  });

  it('delivers an event emitted on one replica, to a subscription made on another, exactly once', async () => {
    const receiver = await startReceiver();
    try {
      const token = await tenantToken();
      const sub = await call(replicas[0]!.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
        endpoint: `${receiver.url}/hook`,
        eventName: EVENT,
        eventVersion: 1,
      });
      expect(sub.status, JSON.stringify(sub.body)).toBe(201);
      const emitted = await call(replicas[1]!.url, token, 'POST', '/__mock/events', { eventName: EVENT });
      expect(emitted.status).toBe(202);
      await receiver.waitForCount(1, 5000);
      // Every replica looks at the due set every 20 ms: a second delivery would come well within this.
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.count).toBe(1);
      const id = emitted.body.notifications[0];
      await until(
        async () =>
          (await call(replicas[2]!.url, token, 'GET', `/v1/notifications/webhook/${id}`)).body.status === 'Success',
        3000,
        'notification Success as read on a third replica',
      );
    } finally {
      await receiver.close();
    }
  });

  it('leaves the due attempts of a SIGKILLed replica to the others: none lost, none doubled', async () => {
    // The first attempt of each event fails, the second (2 s later) succeeds.
    const seen = new Set<string>();
    const receiver = await startReceiver((d) => {
      const id = String(d.json?.id);
      if (seen.has(id)) return { status: 200 };
      seen.add(id);
      return { status: 500 };
    });
    try {
      const token = await tenantToken();
      await call(balancer.url, token, 'POST', '/v1/notifications/webhook/subscriptions', {
        endpoint: `${receiver.url}/hook`,
        eventName: EVENT,
        eventVersion: 1,
      });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const emitted = await call(balancer.url, token, 'POST', '/__mock/events', { eventName: EVENT });
        ids.push(...emitted.body.notifications);
      }
      expect(ids).toHaveLength(12);
      // Every first attempt made and recorded (on whichever replica claimed it)...
      await until(
        async () => {
          for (const id of ids) {
            const attempts = await call(replicas[1]!.url, token, 'GET', `/v1/notifications/webhook/${id}/attempts`);
            if (attempts.body.results.length !== 1) return false;
          }
          return true;
        },
        5000,
        'a recorded first attempt of each notification',
      );
      // ...then replica 0 dies while every second attempt waits in the shared schedule.
      balancer.down.add(0);
      replicas[0]!.process.child.kill('SIGKILL');
      await receiver.waitForCount(24, 8000).catch((e) => {
        throw new Error(`${e}\n${replicas.map((r) => r.process.output()).join('\n---\n')}`);
      });
      await new Promise((r) => setTimeout(r, 600));
      expect(receiver.count).toBe(24);
      expect([...perEvent(receiver).values()]).toEqual(new Array(12).fill(2));
      for (const id of ids) {
        const n = await call(balancer.url, token, 'GET', `/v1/notifications/webhook/${id}`);
        expect(n.body.status).toBe('Success');
      }
    } finally {
      await receiver.close();
    }
  });

  it('answers 503 problems while Redis is gone, never stale data, and recovers when it is back', async () => {
    const token = await tenantToken();
    const alive = replicas.filter((_, i) => !balancer.down.has(i));
    const before = await call(alive[0]!.url, token, 'POST', '/v1/access/apiKeys', { name: 'before-outage' });
    expect(before.status).toBe(201);
    await cluster.redis.stop();
    for (const replica of alive) {
      const res = await call(replica.url, token, 'GET', '/v1/admin/tenants/self');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
    }
    // The same port and data folder: the append-only file brings every write back.
    cluster.redis = await startRedisServer({ port: cluster.redis.port, dir: redisDir });
    for (const replica of alive) {
      await until(
        async () => (await call(replica.url, token, 'GET', '/v1/admin/tenants/self')).status === 200,
        8000,
        `replica ${replica.url} answering again`,
      );
    }
    const res = await request(`${alive[1]!.url}/v1/admin/tenants/self`, { headers: { 'x-api-key': before.body.key } });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });
});

describe.skipIf(!availability.run)('opsapi mock --redis refusals (one line, exit 2)', () => {
  it('refuses --state with --redis, an unreachable Redis, and a Redis serving replicas with other settings', async () => {
    const env = { ...process.env, NO_COLOR: '1' };
    const both = await runOpsapi(
      ['mock', '--redis', 'redis://127.0.0.1:1', '--state', join(dir, 's.json'), '--port', '0'],
      env,
      20_000,
    );
    expectOneLineRefusal(both, 'mock', /--state and --redis cannot be used together/);

    const unreachable = await runOpsapi(
      ['mock', '--redis', `redis://127.0.0.1:${await closedPort()}`, '--port', '0'],
      env,
      20_000,
    );
    expectOneLineRefusal(unreachable, 'mock', /cannot reach Redis/);

    const redis = await startRedisServer();
    let replica: Replica | undefined;
    try {
      replica = await startReplica(redis.url);
      const other = await runOpsapi(
        ['mock', '--redis', redis.url, '--port', '0', '--seed', '99', ...SHARED],
        env,
        20_000,
      );
      expectOneLineRefusal(other, 'mock', /other settings \(differing: seed\)/);
    } finally {
      await replica?.process.stop();
      await redis.stop();
    }
  }, 60_000);
});
