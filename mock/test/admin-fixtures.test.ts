import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { adminTenant, expectProblem, injectHarness, type InjectHarness } from './harness.js';

describe('the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  const tenant = () => adminTenant(h);

  describe('GET /__mock/fixtures', () => {
    it('describes sample records of the tenant that the API knows', async () => {
      const t = await tenant();
      const reply = await h.call('GET', '/__mock/fixtures', { token: t.token });
      expect(reply.status).toBe(200);
      const m = reply.body as FixtureManifest;
      const line = { purchaseOrderId: expect.any(String), lineId: expect.any(String) };
      expect(m).toEqual({
        orgCode: t.org,
        sku: {
          reference: expect.any(String),
          inspectionIds: expect.arrayContaining([expect.any(String)]),
          baseUnitOfMeasureId: expect.any(String),
          alternativeUnitOfMeasureId: expect.any(String),
          locationReference: expect.any(String),
          lotId: expect.any(String),
        },
        unknownUnitOfMeasureId: expect.any(String),
        deletableFamilyId: expect.any(String),
        purchaseOrderLine: line,
        cancelledPurchaseOrderLine: line,
        receivedPurchaseOrderLine: line,
      });
      expect(m.sku.alternativeUnitOfMeasureId).not.toBe(m.sku.baseUnitOfMeasureId);
      expect(m.unknownUnitOfMeasureId).not.toBe(m.sku.baseUnitOfMeasureId);
      const sku = await h.call(
        'GET',
        `/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`,
        { token: t.token, op: 'listSkus' },
      );
      expect(sku.body.results[0]).toMatchObject({
        reference: m.sku.reference,
        status: 'Active',
        baseUnitOfMeasureId: m.sku.baseUnitOfMeasureId,
      });
      const family = await h.call('POST', '/v1/items/families/search', {
        token: t.token,
        body: { filterBy: `id[Equals]${m.deletableFamilyId}` },
        op: 'searchFamilies',
      });
      expect(family.body.results[0]).toMatchObject({ id: m.deletableFamilyId, skuCount: 0 });
    });

    it('answers without credentials with the plain 401', async () => {
      expectProblem(await h.call('GET', '/__mock/fixtures', { token: null }), 401, null);
    });
  });
});
