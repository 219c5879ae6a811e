/**
 * Client checks wired into the mock, through its HTTP shell (docs/DESIGN.md, "Client certification"): the admin
 * routes and their lifecycle, what is observed of the tenant's `/v1` requests (and what is not), and the 429s the
 * profile certify injects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../../auth/presets.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness } from '../../test/harness.js';
import { decisionFile } from '../../../spec/decisions/test/decision-file.js';
import { injected429Requests } from '../plan.js';

let h: InjectHarness;

beforeAll(async () => {
  h = await injectHarness();
});

afterAll(async () => {
  await h?.close();
});

/** A fresh tenant and its admin token. */
async function tenant(prefix = 'cc') {
  const org = freshOrg(prefix);
  return { org, token: await h.token(adminClaims(org)) };
}

const start = (token: string, body: unknown = {}) => h.call('POST', '/__mock/client-checks', { token, body });
const report = (token: string, query = '') => h.call('GET', `/__mock/client-checks/report${query}`, { token });
const outcome = (body: { checks: { id: string; outcome: string }[] }, id: string) =>
  body.checks.find((c) => c.id === id)?.outcome;

describe('POST, GET and DELETE /__mock/client-checks', () => {
  it('starts checks (201 with the profile, the seed drawn or given, the start), reports them and stops them', async () => {
    const { token } = await tenant();
    const drawn = await start(token);
    expect(drawn.status, drawn.text).toBe(201);
    expect(drawn.body).toEqual({ profile: 'observe', seed: expect.any(Number), startedAt: expect.any(String) });
    const given = await start(token, { profile: 'certify', seed: 42, retryAfterSeconds: 2, answerWithinMs: 500 });
    expect(given.body).toMatchObject({ profile: 'certify', seed: 42 });

    const json = await report(token);
    expect(json.status).toBe(200);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toMatchObject({ profile: 'certify', seed: 42, certified: false, mustTotal: 9, pending: [] });
    expect(json.body.options).toMatchObject({ retryAfterSeconds: 2, answerWithinMs: 500 });
    expect(json.body.checks).toHaveLength(17);
    expect(json.body.notObservable.map((n: { id: string }) => n.id)).toContain('client.receiver-constant-time');
    expect(json.body.target).toContain(h.origin);

    const junit = await report(token, '?format=junit');
    expect(junit.headers['content-type']).toMatch(/^application\/xml/);
    expect(junit.text).toMatch(/^<\?xml/);
    expect(junit.text).toContain('client.auth-bearer');
    const html = await report(token, '?format=html');
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.text).toContain('client certification');

    const stopped = await h.call('DELETE', '/__mock/client-checks', { token });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toMatchObject({ profile: 'certify', seed: 42 });
    expectProblem(await report(token), 404, 'COMMON.ENTITY.NOT_FOUND');
    expectProblem(await h.call('DELETE', '/__mock/client-checks', { token }), 404, 'COMMON.ENTITY.NOT_FOUND');
  });

  it('answers 404 when no checks run, and a restart forgets what was observed', async () => {
    const { token } = await tenant();
    const none = await report(token);
    expectProblem(none, 404, 'COMMON.ENTITY.NOT_FOUND');
    expect(none.body.detail).toMatch(/POST \/__mock\/client-checks/);
    await start(token);
    await h.call('GET', '/v1/items/skus?pageSize=2', { token });
    expect(outcome((await report(token)).body, 'client.paging-bounds')).toBe('pass');
    await start(token);
    expect(outcome((await report(token)).body, 'client.paging-bounds')).toBe('skip');
  });

  it('refuses bad bodies and formats with the admin API problem, and unauthenticated callers with the plain 401', async () => {
    const { token } = await tenant();
    const cases: [unknown, string][] = [
      [{ profile: 'strict' }, 'profile'],
      [{ seed: -1 }, 'seed'],
      [{ seed: 1.5 }, 'seed'],
      [{ retryAfterSeconds: 0 }, 'retryAfterSeconds'],
      [{ answerWithinMs: 'fast' }, 'answerWithinMs'],
      [{ readWithinMs: 600_000 }, 'readWithinMs'],
      [[], ''],
    ];
    for (const [body, field] of cases) {
      const reply = await start(token, body);
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters, JSON.stringify(body)).toEqual({ field });
    }
    const notJson = await h.call('POST', '/__mock/client-checks', { token, raw: '{not json' });
    expectProblem(notJson, 400, 'COMMON.VALIDATION.ERROR');
    await start(token);
    const format = await report(token, '?format=pdf');
    expectProblem(format, 400, 'COMMON.VALIDATION.ERROR');
    expect(format.body.parameters).toEqual({ field: 'format' });
    expectProblem(await h.call('POST', '/__mock/client-checks', { token: null, body: {} }), 401, null);
  });

  it("is scoped to the caller's tenant: another tenant neither sees the run nor is observed by it", async () => {
    const a = await tenant();
    const b = await tenant();
    await start(a.token);
    expectProblem(await report(b.token), 404, 'COMMON.ENTITY.NOT_FOUND');
    await h.call('GET', '/v1/items/skus?pageSize=0', { token: b.token });
    expect(outcome((await report(a.token)).body, 'client.paging-bounds')).toBe('skip');
  });

  it('ends with a reset of the tenant', async () => {
    const { token } = await tenant();
    await start(token);
    expect((await h.call('POST', '/__mock/reset', { token, body: {} })).status).toBe(200);
    expectProblem(await report(token), 404, 'COMMON.ENTITY.NOT_FOUND');
  });

  it('is driven in-process through the tenant control, with the same reports', async () => {
    const { org, token } = await tenant();
    const cc = h.mock.control.tenant(org).clientChecks;
    expect(cc.report()).toBeNull();
    expect(cc.stop()).toBeNull();
    expect(() => cc.start({ retryAfterSeconds: 0 })).toThrow(RangeError);
    expect(cc.start({ profile: 'certify', seed: 7 })).toMatchObject({ profile: 'certify', seed: 7 });
    await h.call('GET', '/v1/items/skus?pageSize=1001', { token });
    expect(outcome(cc.report() as never, 'client.paging-bounds')).toBe('fail');
    expect(cc.report('junit')).toMatch(/<testsuites/);
    expect(cc.report('html')).toMatch(/<html/);
    expect((await report(token)).body.seed).toBe(7);
    expect(cc.stop()).toMatchObject({ seed: 7, target: `org ${org}` });
    expect(cc.report()).toBeNull();
  });
});

describe("what is observed of the tenant's requests", () => {
  it('fails client.auth-bearer on a token sent without the Bearer scheme (refused with 401, still judged)', async () => {
    const { token } = await tenant();
    await start(token);
    await h.call('GET', '/v1/items/skus', { token });
    expect(outcome((await report(token)).body, 'client.auth-bearer')).toBe('pass');
    const bare = await h.call('GET', '/v1/items/skus', { token: null, headers: { authorization: token } });
    expect(bare.status).toBe(401);
    const after = (await report(token)).body;
    expect(outcome(after, 'client.auth-bearer')).toBe('fail');
    const evidence = after.checks.find((c: { id: string }) => c.id === 'client.auth-bearer').evidence[0];
    expect(evidence.actual).toBe('a token without a scheme');
    // The report shows the shape of the credentials, never them.
    expect(JSON.stringify(after)).not.toContain(token);
  });

  it('fails client.filter-encoding on a raw && in filterBy, which splits the query string; passes %26%26', async () => {
    const encoded = await tenant();
    await start(encoded.token);
    await h.call('GET', '/v1/items/skus?filterBy=name[Contains]a%26%26name[Contains]b&pageSize=5', {
      token: encoded.token,
    });
    expect(outcome((await report(encoded.token)).body, 'client.filter-encoding')).toBe('pass');

    const raw = await tenant();
    await start(raw.token);
    await h.call('GET', '/v1/items/skus?filterBy=name[Contains]a&&name[Contains]b&pageSize=5', { token: raw.token });
    expect(outcome((await report(raw.token)).body, 'client.filter-encoding')).toBe('fail');
  });

  it('judges bodies, paging and walks from the requests and their answers', async () => {
    const { token } = await tenant();
    await start(token);
    const first = await h.call('GET', '/v1/items/skus?pageSize=1000&pageNumber=1', { token });
    const totalPages = first.body.totalPages as number;
    expect(totalPages).toBeGreaterThan(0);
    await h.call('GET', `/v1/items/skus?pageSize=1000&pageNumber=${totalPages + 1}`, { token });
    await h.call('POST', '/v1/items/families/search', {
      token,
      raw: '{"pageSize":5}',
      headers: { 'content-type': 'text/plain' },
    });
    const body = (await report(token)).body;
    expect(outcome(body, 'client.page-walk-stops')).toBe('fail');
    expect(outcome(body, 'client.body-content-type')).toBe('fail');
  });

  it('does not judge /__mock/* calls, nor answers forced with Prefer', async () => {
    const { org, token } = await tenant();
    await start(token);
    h.mock.control.tenant(org).subscribe('http://127.0.0.1:9/', 'Warehouse.Stock.Updated', 2);
    await h.call('GET', '/__mock/clock', { token });
    await h.call('POST', '/__mock/events', { token, body: { eventName: 'Warehouse.Stock.Updated' } });
    const forced = await h.call('GET', '/v1/items/skus?pageSize=0', { token, headers: { prefer: 'code=429' } });
    expect(forced.status).toBe(429);
    const body = (await report(token)).body;
    for (const id of ['client.body-content-type', 'client.retry-after-wait', 'client.event-names-from-versions'])
      expect(outcome(body, id), id).toBe('skip');
    expect(body.checks.find((c: { id: string }) => c.id === 'client.retry-after-wait').reason).toMatch(
      /not exercised by the client's traffic/,
    );
  });

  it('records subscriptions and reads of the event versions', async () => {
    const { token } = await tenant();
    await start(token);
    const blind = { endpoint: 'http://127.0.0.1:9/', eventName: 'Warehouse.Stock.Updated', eventVersion: 99 };
    expect((await h.call('POST', '/v1/notifications/webhook/subscriptions', { token, body: blind })).status).toBe(400);
    let body = (await report(token)).body;
    expect(outcome(body, 'client.event-names-from-versions')).toBe('fail');
    expect(outcome(body, 'client.subscribes-offered-versions')).toBe('fail');

    await start(token);
    await h.call('GET', '/v1/notifications/events/versions', { token });
    const offered = { ...blind, eventVersion: 2 };
    expect((await h.call('POST', '/v1/notifications/webhook/subscriptions', { token, body: offered })).status).toBe(
      201,
    );
    body = (await report(token)).body;
    expect(outcome(body, 'client.event-names-from-versions')).toBe('pass');
    expect(outcome(body, 'client.subscribes-offered-versions')).toBe('pass');
  });
});

describe('the 429s the profile certify injects', () => {
  const seed = 1234;
  const planned = injected429Requests(seed);
  const [n1 = 0, n2 = 0] = planned;
  let limited: InjectHarness;

  beforeAll(async () => {
    // As many tokens as requests up to the first injected one: the injected one spends none, so one is left.
    limited = await injectHarness({ rateLimit: { limit: n1, windowMs: 600_000 } });
  });

  afterAll(async () => {
    await limited?.close();
  });

  it('plans one request in every 5 to 9, at most 20', () => {
    expect(planned).toHaveLength(20);
    for (const [i, n] of planned.entries()) expect(n - (planned[i - 1] ?? 0)).toBeGreaterThanOrEqual(5);
    for (const [i, n] of planned.entries()) expect(n - (planned[i - 1] ?? 0)).toBeLessThanOrEqual(9);
    expect(n2 - n1).toBeGreaterThanOrEqual(5);
  });

  it('answers the planned request with the rate limiter 429, spending no token, journaled as injected, not in coverage', async () => {
    const org = freshOrg('inject');
    const token = await limited.token(adminClaims(org));
    const started = await limited.call('POST', '/__mock/client-checks', {
      token,
      body: { profile: 'certify', seed, retryAfterSeconds: 3 },
    });
    expect(started.status).toBe(201);

    const statuses: number[] = [];
    for (let i = 1; i <= n1 + 2; i++) {
      const reply = await limited.call('GET', '/v1/items/skus?pageSize=1', { token });
      statuses.push(reply.status);
      if (i === n1) {
        expectProblem(reply, 429, 'COMMON.RATE_LIMIT.EXCEEDED', 'GET /v1/items/skus');
        expect(reply.body.parameters).toEqual({});
        expect(reply.headers['retry-after']).toBe('3');
      }
    }
    // n1 tokens served the n1 requests that were not injected; the next one met the real limit.
    expect(statuses).toEqual([...Array(n1 - 1).fill(200), 429, 200, 429]);

    const control = limited.mock.control.tenant(org);
    const journal = control.requests().filter((e) => e.path === '/v1/items/skus');
    expect(journal.map((e) => e.injected ?? false)).toEqual([...Array(n1 - 1).fill(false), true, false, false]);
    // The same mark over HTTP, where the journal is serialised through its documented schema.
    const listed = (await limited.call('GET', '/__mock/requests', { token })).body.requests as {
      path: string;
      injected?: true;
    }[];
    expect(listed.filter((e) => e.path === '/v1/items/skus').map((e) => e.injected ?? false)).toEqual(
      journal.map((e) => e.injected ?? false),
    );
    const pair = control.coverage().pairs.find((p) => p.operationId === 'listSkus' && p.status === 429);
    expect(pair?.hit).toBe(1);
    const body = (await limited.call('GET', '/__mock/client-checks/report', { token })).body;
    expect(body.perturbations).toEqual([{ kind: '429', at: expect.any(String), requestSeq: n1 }]);
  });
});

describe('the delay of a 429 as the mock told it', () => {
  let adopted: InjectHarness;

  beforeAll(async () => {
    adopted = await injectHarness({
      decisions: decisionFile({ 'retry-delay': { header: 'X-Retry-After-Ms', unit: 'milliseconds' } }),
    });
  });

  afterAll(async () => {
    await adopted?.close();
  });

  it('is read from the header and unit --decisions adopted: a retry sent at once fails client.retry-after-wait', async () => {
    const token = await adopted.token(adminClaims(freshOrg('adopted')));
    const seed = 5;
    const [n1 = 0] = injected429Requests(seed);
    await adopted.call('POST', '/__mock/client-checks', {
      token,
      body: { profile: 'certify', seed, retryAfterSeconds: 2 },
    });
    for (let i = 1; i <= n1; i++) {
      const reply = await adopted.call('GET', '/v1/admin/tenants/self', { token });
      if (i === n1) expect(reply.headers['x-retry-after-ms']).toBe('2000');
    }
    await adopted.call('GET', '/v1/admin/tenants/self', { token });
    const check = (await adopted.call('GET', '/__mock/client-checks/report', { token })).body.checks.find(
      (c: { id: string }) => c.id === 'client.retry-after-wait',
    );
    expect(check.outcome).toBe('fail');
    expect(check.evidence[0].expected).toBe('not before 2000 ms (X-Retry-After-Ms)');
  });
});
