import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type TestMock } from 'opsapi/testing';

let mock: TestMock;

// One mock for the file; each test takes a tenant of its own, a fresh isolated world.
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());

/** Stands in for your client: PUT /v1/items/skus/{skuReference}/stock; answers the status. */
async function setStock(token: string, skuReference: string, body: object): Promise<number> {
  const res = await fetch(`${mock.url}/v1/items/skus/${encodeURIComponent(skuReference)}/stock`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

it('updates the stock of a SKU, and a webhook announces it', async () => {
  const t = mock.tenant();
  const token = await t.token(); // every permission; t.token({ permissions: [...] }) for fewer
  const { reference, locationReference } = t.fixtures().sku; // a real SKU of this tenant's world
  const hooks = await t.webhooks.listen({ events: ['Warehouse.Stock.Updated'] });
  try {
    expect(await setStock(token, reference, { locationReference, stock: 12 })).toBe(204);
    expect(t.requests({ operationId: 'updateSkuStock', status: 204 })).toHaveLength(1);

    const event = await hooks.next({ eventName: 'Warehouse.Stock.Updated' });
    expect(event.verified).toBe(true); // X-HMAC-Signature checked with the tenant's secret
    expect(event.data).toMatchObject({ skuReference: reference, locationReference, stock: 12 });
  } finally {
    await hooks.close();
  }
});

it('handles the errors of a stock update (a coverage gate)', async () => {
  const t = mock.tenant();
  const reader = await t.token({ permissions: ['Warehouse.Skus.Read'], roles: [] });
  const { reference, locationReference } = t.fixtures().sku;
  expect(await setStock(await t.token(), reference, { locationReference, stock: 1 })).toBe(204);
  expect(await setStock(reader, reference, { locationReference, stock: 1 })).toBe(403);
  expect(await setStock(await t.token(), 'NO-SUCH-SKU', { locationReference, stock: 1 })).toBe(404);

  // The gate: the operations the client uses were all called, and it met 3 of their 8 declared answers.
  const { summary } = t.coverage({ operations: ['updateSkuStock'] });
  expect(summary.operations).toEqual({ hit: 1, total: 1 });
  expect(summary.pairs.hit / summary.pairs.total).toBeGreaterThanOrEqual(0.35);
});
