import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

const enc = encodeURIComponent;

describe('the operations over state', () => {
  let h: InjectHarness;
  let m: FixtureManifest;

  beforeAll(async () => {
    h = await injectHarness();
    const fixtures = await h.call('GET', '/__mock/fixtures');
    expect(fixtures.status).toBe(200);
    m = fixtures.body as FixtureManifest;
  });

  afterAll(async () => {
    await h?.close();
  });

  /** The SKU list item of a reference. */
  async function skuOf(
    reference: string,
    token = h.admin,
  ): Promise<{ totalStock: number; familyId: string | null; lastModifiedAt: string }> {
    const reply = await h.call('GET', `/v1/items/skus?filterBy=${enc(`reference[Equals]${reference}`)}`, {
      token,
      op: 'listSkus',
    });
    expect(reply.status).toBe(200);
    expect(reply.body.totalCount).toBe(1);
    return reply.body.results[0];
  }

  function putStock(reference: string, body: Record<string, unknown>, token = h.admin) {
    return h.call('PUT', `/v1/items/skus/${enc(reference)}/stock`, { token, body, op: 'updateSkuStock' });
  }

  describe('SKUs', () => {
    it('lists the SKUs of the catalog in a page envelope', async () => {
      const reply = await h.call('GET', '/v1/items/skus', { op: 'listSkus' });
      expect(reply.status).toBe(200);
      expect(reply.body.totalCount).toBe(h.mock.control.options.skus);
      expect(reply.body.results).toHaveLength(25);
      for (const sku of reply.body.results)
        expect(sku).toEqual(
          expect.objectContaining({ id: expect.any(String), reference: expect.any(String), name: expect.any(String) }),
        );
    });

    it('sets the stock of a SKU with 204 and no body, and the list reflects it in totalStock', async () => {
      const zero = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        lotId: m.sku.lotId,
        stock: 0,
      });
      expect(zero.status).toBe(204);
      expect(zero.text).toBe('');
      const base = (await skuOf(m.sku.reference)).totalStock;
      const set = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        lotId: m.sku.lotId,
        stock: 125,
        comment: 'counted',
      });
      expect(set.status).toBe(204);
      expect(set.text).toBe('');
      expect((await skuOf(m.sku.reference)).totalStock).toBeCloseTo(base + 125, 6);
      // Setting the same place again replaces the entry rather than adding to it.
      await putStock(m.sku.reference, { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: 25 });
      expect((await skuOf(m.sku.reference)).totalStock).toBeCloseTo(base + 25, 6);
    });

    it('takes the base unit when named explicitly like when omitted', async () => {
      await putStock(m.sku.reference, { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: 0 });
      const base = (await skuOf(m.sku.reference)).totalStock;
      const reply = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        lotId: m.sku.lotId,
        stock: 3,
        stockUnitOfMeasureId: m.sku.baseUnitOfMeasureId,
      });
      expect(reply.status).toBe(204);
      expect((await skuOf(m.sku.reference)).totalStock).toBeCloseTo(base + 3, 6);
    });

    it('converts stock given in an alternative unit to the base unit', async () => {
      const place = { locationReference: m.sku.locationReference, lotId: m.sku.lotId };
      await putStock(m.sku.reference, { ...place, stock: 0 });
      const t0 = (await skuOf(m.sku.reference)).totalStock;
      expect(
        (
          await putStock(m.sku.reference, {
            ...place,
            stock: 1,
            stockUnitOfMeasureId: m.sku.alternativeUnitOfMeasureId,
          })
        ).status,
      ).toBe(204);
      const factor = (await skuOf(m.sku.reference)).totalStock - t0;
      expect(factor).toBeGreaterThan(0);
      expect(factor).not.toBe(1);
      expect(
        (
          await putStock(m.sku.reference, {
            ...place,
            stock: 3,
            stockUnitOfMeasureId: m.sku.alternativeUnitOfMeasureId,
          })
        ).status,
      ).toBe(204);
      expect((await skuOf(m.sku.reference)).totalStock - t0).toBeCloseTo(3 * factor, 6);
    });

    it('answers an unknown SKU with 404 COMMON.ENTITY.NOT_FOUND', async () => {
      const reply = await putStock('NO-SUCH-SKU', { locationReference: m.sku.locationReference, stock: 1 });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND', 'PUT /v1/items/skus/NO-SUCH-SKU/stock');
      expect(reply.body.parameters).toEqual({ entity: 'SKU', id: 'NO-SUCH-SKU' });
    });

    it('answers an unknown location with 404', async () => {
      const reply = await putStock(m.sku.reference, { locationReference: 'NOWHERE-9', stock: 1 });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'Location', id: 'NOWHERE-9' });
    });

    it('answers an unknown lot with 404', async () => {
      const reply = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        lotId: 'lot_nope',
        stock: 1,
      });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'Lot', id: 'lot_nope' });
    });

    it('answers a unit not configured for the SKU with 422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED', async () => {
      const before = await skuOf(m.sku.reference);
      const reply = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        stock: 1,
        stockUnitOfMeasureId: m.unknownUnitOfMeasureId,
      });
      expectProblem(reply, 422, 'COMMON.QUANTITY.UNIT_NOT_CONFIGURED');
      expect(reply.body.parameters).toMatchObject({
        unitOfMeasureId: m.unknownUnitOfMeasureId,
        skuReference: m.sku.reference,
      });
      expect(await skuOf(m.sku.reference)).toEqual(before);
    });

    it('answers a quantity finer than the unit allows with 422 COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED', async () => {
      const reply = await putStock(m.sku.reference, {
        locationReference: m.sku.locationReference,
        lotId: m.sku.lotId,
        stock: 1.23456789,
      });
      expectProblem(reply, 422, 'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED');
    });

    it('answers a negative stock with 400 COMMON.VALIDATION.ERROR naming the field', async () => {
      const reply = await putStock(m.sku.reference, { locationReference: m.sku.locationReference, stock: -1 });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters).toEqual({ field: 'stock' });
    });
  });

  describe('SKU inspections', () => {
    const path = () => `/v1/items/skus/${m.sku.reference}/inspections/${m.sku.inspectionIds[0]}`;

    it('updates an inspection definition with 200 and returns the updated definition', async () => {
      const first = await h.call('PUT', path(), {
        body: { name: 'Visual check', isMandatory: true },
        op: 'updateSkuInspection',
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        id: m.sku.inspectionIds[0],
        name: 'Visual check',
        type: expect.any(String),
        isMandatory: true,
      });
      const second = await h.call('PUT', path(), {
        body: { name: 'Visual check, second pass', isMandatory: false },
        op: 'updateSkuInspection',
      });
      expect(second.status).toBe(200);
      expect(second.body).toEqual({
        id: m.sku.inspectionIds[0],
        name: 'Visual check, second pass',
        type: first.body.type,
        isMandatory: false,
      });
    });

    it('touches the SKU it belongs to', async () => {
      await h.call('POST', '/__mock/clock', { body: { advanceSeconds: 5 } });
      const before = await skuOf(m.sku.reference);
      const reply = await h.call('PUT', path(), {
        body: { name: 'Touch', isMandatory: true },
        op: 'updateSkuInspection',
      });
      expect(reply.status).toBe(200);
      expect(Date.parse((await skuOf(m.sku.reference)).lastModifiedAt)).toBeGreaterThan(
        Date.parse(before.lastModifiedAt),
      );
    });

    it('answers an unknown inspection with 404', async () => {
      const reply = await h.call('PUT', `/v1/items/skus/${m.sku.reference}/inspections/insp_nope`, {
        body: { name: 'x', isMandatory: false },
        op: 'updateSkuInspection',
      });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'Inspection', id: 'insp_nope' });
    });

    it('answers an unknown SKU with 404', async () => {
      const reply = await h.call('PUT', `/v1/items/skus/NO-SUCH-SKU/inspections/${m.sku.inspectionIds[0]}`, {
        body: { name: 'x', isMandatory: false },
        op: 'updateSkuInspection',
      });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'SKU', id: 'NO-SUCH-SKU' });
    });

    it('answers a body without isMandatory with 400 naming the field', async () => {
      const reply = await h.call('PUT', path(), { body: { name: 'x' }, op: 'updateSkuInspection' });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
      expect(reply.body.parameters).toEqual({ field: 'isMandatory' });
    });
  });
});
