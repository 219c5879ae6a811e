/**
 * One client-suite scenario of the Testing API, written once and run three ways: under vitest from the sources
 * (scenario.e2e.test.ts), by plain `node` against the compiled dist/ (run-scenario.mjs) and, with the same runner, from the
 * packed tarball installed elsewhere (test/pack.e2e.test.ts). Plain JavaScript so that Node runs it without a
 * TypeScript loader; it takes `startMock` as an argument, so each run chooses where the package comes from.
 */
import assert from 'node:assert/strict';

/** Calls the mock as a client would, with a bearer token; answers the status and the parsed body. */
async function call(url, token, init = {}) {
  const res = await fetch(url, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/**
 * Two mocks in one process that share no state, a tenant per test, the journal, an API key, and a webhook listener
 * left open for `close()` to close. Resolves with what it saw; throws (node:assert) on the first surprise.
 */
export async function scenario(startMock) {
  const [first, second] = await Promise.all([startMock(), startMock({ rateLimit: 'off', seed: 7 })]);
  try {
    // The same org in both mocks: two worlds that never see each other's traffic.
    const a = first.tenant('shared-org');
    const b = second.tenant('shared-org');
    const skus = await call(`${first.url}/v1/items/skus?pageSize=2`, await a.token());
    assert.equal(skus.status, 200);
    assert.equal(skus.body.results.length, 2);
    assert.equal(a.requests({ operationId: 'listSkus' }).length, 1);
    assert.equal(b.requests().length, 0);

    // An API key is a credential on its own (X-Api-Key), and making it is not the client's traffic.
    const key = await b.apiKey('scenario');
    const byKey = await fetch(`${second.url}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key } });
    assert.equal(byKey.status, 200);
    await byKey.arrayBuffer();
    assert.deepEqual(
      b.requests().map((r) => r.operationId),
      ['listSkus'],
    );

    // A fresh tenant with a listener: an emitted event arrives signed with the tenant's secret.
    const t = second.tenant();
    const hooks = await t.webhooks.listen({ events: ['Items.Sku.Created'] });
    const emitted = await call(`${second.url}/__mock/events`, await t.token(), {
      method: 'POST',
      body: JSON.stringify({ eventName: 'Items.Sku.Created' }),
    });
    assert.equal(emitted.status, 202);
    const delivery = await hooks.next({ timeoutMs: 10_000 });
    assert.equal(delivery.verified, true);
    assert.equal(delivery.id, emitted.body.eventId);

    return {
      distinctUrls: first.url !== second.url,
      listed: skus.body.results.length,
      delivered: { eventName: delivery.eventName, verified: delivery.verified },
    };
  } finally {
    // The listener is still open: closing the mocks closes it too, and nothing is left to keep Node alive.
    await Promise.all([first.close(), second.close()]);
  }
}
