import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../common/redis-server.js';
import type { RedisServer } from '../../../test/support/redis.js';
import { replicationKeys } from '../keys.js';
import { connectRedis, type RedisLink } from '../redis-commands.js';
import { redisAvailability } from '../../../test/support/redis.js';

/** A member of the `due` and `leases` sets as the replication scripts write it (../scripts.ts): org, newline, id. */
const jobMember = (org: string, notificationId: string) => `${org}\n${notificationId}`;

const availability = redisAvailability();

/** The Lua scripts of a replicated mock, each called as the replicas call it, against a real redis-server. */
let redis: RedisServer;
let link: RedisLink;
const k = replicationKeys('test:');
let n = 0;
const freshOrg = () => `org-${++n}`;
const INSTANCE = 'instance-1';

beforeAll(async () => {
  if (!availability.run) return;
  redis = await startRedisServer();
  link = await connectRedis(redis.url, () => undefined);
  await link.client.set(k.instance, INSTANCE);
}, 20_000);

afterAll(async () => {
  link?.client.disconnect();
  await redis?.stop();
});

type GateReply = [string, string?, [string, string[]][]?, number?, number?];

const gate = (org: string, epoch: string, last: string, token = '', limit = 0, windowMs = 1000) =>
  link.run(
    'opsapiGate',
    [k.meta(org), k.log(org), k.lock(org), k.rate(org), k.globalEpoch, k.instance],
    [epoch, last, token, 5000, limit, windowMs, INSTANCE],
  ) as Promise<GateReply>;

/** An append as replica r1 makes it, under the keys given (`k`, or a test's own: a line of its own in `due`). */
const appendUnder = (keys: typeof k, org: string, token: string, changes: string[], ops: (string | number)[] = []) =>
  link.run(
    'opsapiAppend',
    [
      keys.meta(org),
      keys.log(org),
      keys.rate(org),
      keys.globalEpoch,
      keys.apiKeys,
      keys.lock(org),
      keys.jobs(org),
      keys.due,
      keys.instance,
    ],
    [token, org, changes.length, 'r1', INSTANCE, ...changes.flatMap((c) => [c, '']), ...ops],
  ) as Promise<[string, string, string[], string]>;

const append = (org: string, token: string, changes: string[], ops: (string | number)[] = []) =>
  appendUnder(k, org, token, changes, ops);

/** A claim's answer: the claimed (member, job, lease token, ...) and when the schedule is next due (-1: empty). */
type ClaimReply = [string[], number];

const claimUnder = (keys: typeof k, now: number, leaseMs: number, org = '', offset: number | '' = '') =>
  link.run(
    'opsapiClaim',
    [keys.due, keys.leases, `${keys.leases}:owners`],
    [now, leaseMs, 10, 'r1', keys.prefix, org, offset],
  ) as Promise<ClaimReply>;

const claim = async (now: number, leaseMs: number, org = '') => (await claimUnder(k, now, leaseMs, org))[0];

describe.skipIf(!availability.run)('gate and append: one ordered log per tenant', () => {
  it('gives a fresh copy every entry, then only what came after its last one', async () => {
    const org = freshOrg();
    const first = await gate(org, '', '');
    expect(first[0]).toBe('ok');
    const epoch = first[1] as string;
    const [before, , ids] = await append(org, '', ['{"a":1}', '{"a":2}']);
    expect(before).toBe('');
    expect(ids).toHaveLength(2);

    const again = await gate(org, '', '');
    expect(again[2]?.map((e) => e[1][1])).toEqual(['{"a":1}', '{"a":2}']);
    const after = await gate(org, epoch, ids[0] as string);
    expect(after[2]?.map((e) => e[1][1])).toEqual(['{"a":2}']);
    const none = await gate(org, epoch, ids[1] as string);
    expect(none[2]).toEqual([]);
  });

  it('tells an appending replica what came in between (its last id is not the log last)', async () => {
    const org = freshOrg();
    const [, , [mine]] = await append(org, '', ['{"by":"a"}']);
    await append(org, '', ['{"by":"b"}']);
    const [before] = await append(org, '', ['{"by":"a"}']);
    expect(before).not.toBe(mine);
  });

  it('answers lost, and writes nothing, once Redis no longer holds the instance the replica follows', async () => {
    const org = freshOrg();
    await link.client.set(k.instance, 'after-a-restart');
    try {
      expect((await gate(org, '', ''))[0]).toBe('lost');
      expect((await append(org, '', ['{"x":1}']))[0]).toBe('lost');
      expect(await link.client.exists(k.log(org))).toBe(0);
    } finally {
      await link.client.set(k.instance, INSTANCE);
    }
  });

  it('lets one replica at a time hold the write lock, released by its append only', async () => {
    const org = freshOrg();
    expect((await gate(org, '', '', 'a:1'))[0]).toBe('ok');
    expect((await gate(org, '', '', 'b:1'))[0]).toBe('locked');
    await append(org, 'b:1', []);
    expect((await gate(org, '', '', 'b:2'))[0]).toBe('locked');
    await append(org, 'a:1', ['{}']);
    expect((await gate(org, '', '', 'b:3'))[0]).toBe('ok');
  });

  it('empties a tenant on reset and on a reset of every tenant, with a new epoch each time', async () => {
    const org = freshOrg();
    const e0 = (await gate(org, '', ''))[1];
    await append(org, '', ['{"x":1}']);
    await link.run('opsapiReset', [k.meta(org), k.log(org), k.rate(org), k.jobs(org), k.due], [org]);
    const e1 = await gate(org, e0 as string, '');
    expect(e1[1]).not.toBe(e0);
    expect(e1[2]).toEqual([]);
    await append(org, '', ['{"x":2}']);
    await link.client.incr(k.globalEpoch);
    const e2 = await gate(org, e1[1] as string, '');
    expect(e2[1]).not.toBe(e1[1]);
    expect(e2[2]).toEqual([]);
  });

  it('takes rate-limit tokens from one bucket: the limit passes, then the wait for the next token', async () => {
    const org = freshOrg();
    const taken: number[] = [];
    for (let i = 0; i < 6; i++) taken.push((await gate(org, '', '', '', 5, 60_000))[3] as number);
    expect(taken).toEqual([1, 1, 1, 1, 1, 0]);
    const refused = await gate(org, '', '', '', 5, 60_000);
    // One token every 12 s at 5 per minute.
    expect(refused[4]).toBeGreaterThan(10_000);
    expect(refused[4]).toBeLessThanOrEqual(12_000);
  });
});

describe.skipIf(!availability.run)('the shared schedule: claims and leases', () => {
  const job = (dueAt: number) => JSON.stringify({ trigger: 'Scheduled', dueAt, auto: 0, generation: 0 });

  it('gives each due attempt to one claimer, never one not yet due', async () => {
    const org = freshOrg();
    const now = Date.now();
    await append(org, '', ['{}'], ['s', 'ntf_1', job(now), now - 1, 's', 'ntf_2', job(now + 60_000), now + 60_000]);
    const first = await claim(now, 10_000);
    const mine = first.filter((_, i) => i % 3 === 0).filter((m) => m.startsWith(`${org}\n`));
    expect(mine).toEqual([jobMember(org, 'ntf_1')]);
    const second = await claim(now, 10_000);
    expect(second.filter((_, i) => i % 3 === 0).filter((m) => m.startsWith(`${org}\n`))).toEqual([]);
  });

  it('makes an attempt due again when its claim lapses (the claimer died), and completes it once', async () => {
    const org = freshOrg();
    const now = Date.now();
    await append(org, '', [], ['s', 'ntf_1', job(now), now]);
    const [member, , token] = (await claim(now, 1000, org)) as [string, string, string];
    expect(member).toBe(jobMember(org, 'ntf_1'));
    expect(await claim(now + 500, 1000, org)).toEqual([]);
    const retaken = await claim(now + 1500, 1000, org);
    expect(retaken[0]).toBe(member);
    // The first claimer's late completion is refused: the lease is someone else's now.
    const complete = (t: string) =>
      link.run('opsapiComplete', [k.leases, `${k.leases}:owners`, k.jobs(org), k.due], [member, t, 'ntf_1']);
    expect(await complete(token)).toBe(0);
    expect(await complete(retaken[2] as string)).toBe(1);
    expect(await link.client.hexists(k.jobs(org), 'ntf_1')).toBe(0);
  });

  it('moves waiting attempts sooner when the tenant clock jumps, and claims them in the same step', async () => {
    const org = freshOrg();
    const now = Date.now();
    await append(org, '', [], ['s', 'ntf_1', job(now + 3_600_000), now + 3_600_000]);
    expect(await claim(now, 1000, org)).toEqual([]);
    const [jumped] = await claimUnder(k, now, 1000, org, 3_600_000);
    expect(jumped[0]).toBe(jobMember(org, 'ntf_1'));
  });

  it("paces a tenant's claims over every claimer: one bucket of `limit` per window, its turn moved to the next token", async () => {
    const own = replicationKeys('pace:');
    await link.client.set(own.instance, INSTANCE);
    const org = freshOrg();
    const now = Date.now();
    const ops: (string | number)[] = [];
    for (let i = 0; i < 10; i++) ops.push('s', `ntf_${i}`, job(now), now);
    await appendUnder(own, org, '', [], ops);
    // 3 per second: two claimers at the same moment get 3 in all, as one would.
    const paced = (at: number, owner: string) =>
      link.run(
        'opsapiClaim',
        [own.due, own.leases, `${own.leases}:owners`],
        [at, 60_000, 10, owner, own.prefix, '', '', '', 3, 1000],
      ) as Promise<ClaimReply>;
    const [first] = await paced(now, 'r1');
    const [second, next] = await paced(now, 'r2');
    expect(first.length / 3).toBe(3);
    expect(second).toEqual([]);
    // The tenant's next token comes a third of a second later: that is when the schedule is next due for it.
    expect(next).toBe(now + 334);
    expect((await paced(now + 334, 'r2'))[0].length / 3).toBe(1);
    // A whole window later the bucket is full again: 3 more, never more than the limit at once.
    expect((await paced(now + 5000, 'r1'))[0].length / 3).toBe(3);
  });

  it('answers when the schedule is next due: the earliest waiting attempt or lapsing lease, -1 when empty', async () => {
    // Keys of this test's own: the other tests' tenants wait in the shared line of `k`.
    const own = replicationKeys('next:');
    await link.client.set(own.instance, INSTANCE);
    const org = freshOrg();
    const now = Date.now();
    expect(await claimUnder(own, now, 1000)).toEqual([[], -1]);
    await appendUnder(own, org, '', [], ['s', 'ntf_1', job(now + 60_000), now + 60_000, 's', 'ntf_2', job(now), now]);
    // ntf_2 is claimed (leased until now + 5000); ntf_1 waits until now + 60000: the lease lapses first.
    const [claimed, next] = await claimUnder(own, now, 5000);
    expect(claimed[0]).toBe(jobMember(org, 'ntf_2'));
    expect(next).toBe(now + 5000);
    const complete = link.run(
      'opsapiComplete',
      [own.leases, `${own.leases}:owners`, own.jobs(org), own.due],
      [claimed[0] as string, claimed[2] as string, 'ntf_2'],
    );
    expect(await complete).toBe(1);
    expect(await claimUnder(own, now, 5000)).toEqual([[], now + 60_000]);
  });

  it('drops a cancelled attempt', async () => {
    const org = freshOrg();
    const now = Date.now();
    await append(org, '', [], ['s', 'ntf_1', job(now), now]);
    await append(org, '', [], ['c', 'ntf_1', '', 0]);
    expect(await claim(now, 1000, org)).toEqual([]);
  });
});
