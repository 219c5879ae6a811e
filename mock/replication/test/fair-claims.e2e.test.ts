/** The shared schedule's claim is fair over tenants (../scripts.ts CLAIM), against a real redis-server. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRedisServer } from '../../../common/redis-server.js';
import { redisAvailability, type RedisServer } from '../../../test/support/redis.js';
import { replicationKeys } from '../keys.js';
import { connectRedis, type RedisLink } from '../redis-commands.js';

const availability = redisAvailability();
let redis: RedisServer;
let link: RedisLink;
/** Keys under a prefix of each test's own: no tenant of another test waits in its line. */
let k = replicationKeys('fair:');
const INSTANCE = 'instance-1';
let n = 0;
const freshOrg = (name: string) => `${name}-${++n}`;

beforeAll(async () => {
  if (!availability.run) return;
  redis = await startRedisServer();
  link = await connectRedis(redis.url, () => undefined);
}, 20_000);

beforeEach(async () => {
  if (!availability.run) return;
  k = replicationKeys(`fair${++n}:`);
  await link.client.set(k.instance, INSTANCE);
});

afterAll(async () => {
  link?.client.disconnect();
  await redis?.stop();
});

const job = (dueAt: number) => JSON.stringify({ trigger: 'Scheduled', dueAt, auto: 0, generation: 0 });

/** Schedules `count` attempts of a tenant due at `at` (as a replica's append does). */
async function schedule(org: string, count: number, at: number, from = 0): Promise<void> {
  const ops: (string | number)[] = [];
  for (let i = from; i < from + count; i++) ops.push('s', `ntf_${i}`, job(at), at);
  await link.run(
    'opsapiAppend',
    [k.meta(org), k.log(org), k.rate(org), k.globalEpoch, k.apiKeys, k.lock(org), k.jobs(org), k.due, k.instance],
    ['', org, 0, 'r1', INSTANCE, ...ops],
  );
}

/** A claim of any tenant's attempts, at most `max`, `perTenant` each, with what this replica holds already. */
async function claim(now: number, max: number, perTenant: number, held: (string | number)[] = []): Promise<string[]> {
  const [flat] = (await link.run(
    'opsapiClaim',
    [k.due, k.leases, `${k.leases}:owners`],
    [now, 60_000, max, 'r1', k.prefix, '', '', perTenant, '', '', ...held],
  )) as [string[], number];
  return flat.filter((_, i) => i % 3 === 0).map((member) => member.split('\n')[0] as string);
}

const tally = (orgs: string[]) => {
  const counts: Record<string, number> = {};
  for (const org of orgs) counts[org] = (counts[org] ?? 0) + 1;
  return counts;
};

describe.skipIf(!availability.run)('fair claims over tenants', () => {
  it("serves a tenant due later in the same claim as another tenant's older backlog, a quota each", async () => {
    const now = Date.now();
    const noisy = freshOrg('noisy');
    const quiet = freshOrg('quiet');
    await schedule(noisy, 200, now - 60_000);
    await schedule(quiet, 1, now - 1);
    // By due time alone the 200 older attempts came first: a claim of 10 took none of the quiet tenant's.
    expect(tally(await claim(now, 10, 4))).toEqual({ [noisy]: 4, [quiet]: 1 });
    expect(Number(await link.run('opsapiDueCount', [k.due], [k.prefix]))).toBe(196);
  });

  it('puts a served tenant at the end of the line, and skips a tenant this replica holds its share of', async () => {
    const now = Date.now();
    const a = freshOrg('a');
    const b = freshOrg('b');
    const c = freshOrg('c');
    await schedule(a, 50, now - 3000);
    await schedule(b, 50, now - 2000);
    await schedule(c, 50, now - 1000);
    // One tenant per claim (max 2, 2 each): a first, then b, then c, then a again.
    const rounds: string[][] = [];
    for (let i = 0; i < 4; i++) rounds.push(await claim(now + i, 2, 2));
    expect(rounds.map((r) => [...new Set(r)])).toEqual([[a], [b], [c], [a]]);
    // This replica holds 2 of b's and 1 of c's already: b gets nothing more, c one.
    expect(tally(await claim(now + 10, 10, 2, [b, 2, c, 1]))).toEqual({ [a]: 2, [c]: 1 });
  });

  it('takes a reset tenant out of the line with every attempt it had waiting', async () => {
    const now = Date.now();
    const org = freshOrg('reset');
    await schedule(org, 5, now - 1);
    expect(await link.client.zscore(k.due, org)).not.toBeNull();
    await link.run('opsapiReset', [k.meta(org), k.log(org), k.rate(org), k.jobs(org), k.due], [org]);
    expect(await link.client.zscore(k.due, org)).toBeNull();
    expect(await link.client.exists(`${k.jobs(org)}:due`)).toBe(0);
    expect(await claim(now, 10, 10)).not.toContain(org);
  });

  it('brings a tenant whose next attempts are later forward for a new attempt due now', async () => {
    const now = Date.now();
    const org = freshOrg('later');
    await schedule(org, 1, now + 3_600_000);
    expect(await claim(now, 10, 10)).not.toContain(org);
    await schedule(org, 1, now - 1, 1);
    expect(await claim(now, 10, 10)).toEqual([org]);
  });
});
