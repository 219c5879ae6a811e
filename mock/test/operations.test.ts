import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, catalogEntry } from '../../spec/errors/index.js';
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

  describe('families', () => {
    it('searches with pageSize, filterBy and sortBy in the body', async () => {
      const reply = await h.call('POST', '/v1/items/families/search', {
        body: { pageSize: 5, filterBy: 'skuCount[Gt]0', sortBy: '-skuCount' },
        op: 'searchFamilies',
      });
      expect(reply.status).toBe(200);
      expect(reply.body.pageSize).toBe(5);
      expect(reply.body.results.length).toBeLessThanOrEqual(5);
      const counts = reply.body.results.map((f: { skuCount: number }) => f.skuCount);
      for (const c of counts) expect(c).toBeGreaterThan(0);
      expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    });

    it('searches with an empty body using the defaults', async () => {
      const reply = await h.call('POST', '/v1/items/families/search', { body: {}, op: 'searchFamilies' });
      expect(reply.status).toBe(200);
      expect(reply.body.pageNumber).toBe(1);
      expect(reply.body.pageSize).toBe(25);
    });

    it('deletes a family with 204, then 409 ITEMS.FAMILY.ALREADY_DELETED, and hides it from search', async () => {
      const id = m.deletableFamilyId;
      const found = await h.call('POST', '/v1/items/families/search', {
        body: { filterBy: `id[Equals]${id}` },
        op: 'searchFamilies',
      });
      expect(found.body.totalCount).toBe(1);
      const del = await h.call('DELETE', `/v1/items/families/${id}`, { op: 'deleteFamily' });
      expect(del.status).toBe(204);
      expect(del.text).toBe('');
      const again = await h.call('DELETE', `/v1/items/families/${id}`, { op: 'deleteFamily' });
      expectProblem(again, 409, 'ITEMS.FAMILY.ALREADY_DELETED', `DELETE /v1/items/families/${id}`);
      const gone = await h.call('POST', '/v1/items/families/search', {
        body: { filterBy: `id[Equals]${id}` },
        op: 'searchFamilies',
      });
      expect(gone.body.totalCount).toBe(0);
    });

    it('answers an unknown family with 404', async () => {
      const reply = await h.call('DELETE', '/v1/items/families/fam_nope', { op: 'deleteFamily' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
      expect(reply.body.parameters).toEqual({ entity: 'Family', id: 'fam_nope' });
    });

    it('detaches the SKUs of a deleted family', async () => {
      const withSkus = await h.call('POST', '/v1/items/families/search', {
        body: { pageSize: 1, filterBy: 'skuCount[Gt]0' },
        op: 'searchFamilies',
      });
      const family = withSkus.body.results[0] as { id: string };
      const members = await h.call('GET', `/v1/items/skus?filterBy=${enc(`familyId[Equals]${family.id}`)}`, {
        op: 'listSkus',
      });
      expect(members.body.totalCount).toBeGreaterThan(0);
      expect((await h.call('DELETE', `/v1/items/families/${family.id}`, { op: 'deleteFamily' })).status).toBe(204);
      const after = await h.call('GET', `/v1/items/skus?filterBy=${enc(`familyId[Equals]${family.id}`)}`, {
        op: 'listSkus',
      });
      expect(after.body.totalCount).toBe(0);
    });
  });

  describe('assets and the tenant', () => {
    it('lists the maintenance assets', async () => {
      const reply = await h.call('GET', '/v1/maintenance/assets?pageSize=1000', { op: 'listAssets' });
      expect(reply.status).toBe(200);
      expect(reply.body.totalCount).toBeGreaterThan(0);
      expect(reply.body.results).toHaveLength(reply.body.totalCount);
      const ids = new Set(reply.body.results.map((a: { id: string }) => a.id));
      for (const asset of reply.body.results as { parentId: string | null }[])
        if (asset.parentId !== null) expect(ids.has(asset.parentId)).toBe(true);
    });

    it('reads the tenant of the credentials', async () => {
      const reply = await h.call('GET', '/v1/admin/tenants/self', { op: 'getTenantSelf' });
      expect(reply.status).toBe(200);
      expect(reply.body.orgCode).toBe(h.org);
      expect(m.orgCode).toBe(h.org);
    });
  });

  describe('purchase order lines', () => {
    const linePath = (ref: { purchaseOrderId: string; lineId: string }) =>
      `/v1/planning/purchaseOrders/${ref.purchaseOrderId}/lines/${ref.lineId}`;

    it('updates a line with 200 and returns the updated line', async () => {
      const reply = await h.call('PUT', linePath(m.purchaseOrderLine), {
        body: { quantity: 42, comment: 'rush', expectedDate: '2030-01-15' },
        op: 'updatePurchaseOrderLine',
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        id: m.purchaseOrderLine.lineId,
        purchaseOrderId: m.purchaseOrderLine.purchaseOrderId,
        quantity: 42,
        comment: 'rush',
        expectedDate: '2030-01-15',
      });
      const again = await h.call('PUT', linePath(m.purchaseOrderLine), {
        body: { unitPrice: 9.5 },
        op: 'updatePurchaseOrderLine',
      });
      expect(again.body).toMatchObject({ quantity: 42, comment: 'rush', unitPrice: 9.5 });
    });

    it('refuses a cancelled line with 422 PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE', async () => {
      const reply = await h.call('PUT', linePath(m.cancelledPurchaseOrderLine), {
        body: { quantity: 1 },
        op: 'updatePurchaseOrderLine',
      });
      expectProblem(
        reply,
        422,
        'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
        `PUT ${linePath(m.cancelledPurchaseOrderLine)}`,
      );
      expect(reply.body.parameters).toEqual(m.cancelledPurchaseOrderLine);
    });

    it('refuses a received line with 422 PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE', async () => {
      const reply = await h.call('PUT', linePath(m.receivedPurchaseOrderLine), {
        body: { comment: 'late' },
        op: 'updatePurchaseOrderLine',
      });
      expectProblem(reply, 422, 'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE');
    });

    it('refuses a quantity below the received quantity with 422 PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED', async () => {
      const partial = (h.mock.control.tenant(h.org).inspect()?.purchaseOrderLines() ?? []).find(
        (l) => l.status === 'PartiallyReceived' && l.receivedQuantity > 0,
      );
      expect(partial, 'the seed has a partially received line').toBeDefined();
      const ref = { purchaseOrderId: partial!.purchaseOrderId, lineId: partial!.id };
      const below = partial!.receivedQuantity >= 1 ? partial!.receivedQuantity - 1 : 0;
      const reply = await h.call('PUT', linePath(ref), { body: { quantity: below }, op: 'updatePurchaseOrderLine' });
      expectProblem(reply, 422, 'PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED');
      expect(reply.body.parameters).toMatchObject({ ...ref, receivedQuantity: partial!.receivedQuantity });
      const equal = await h.call('PUT', linePath(ref), {
        body: { quantity: partial!.receivedQuantity },
        op: 'updatePurchaseOrderLine',
      });
      expect(equal.status).toBe(200);
    });

    it('answers an unknown line or order with 404', async () => {
      const lineMissing = await h.call(
        'PUT',
        linePath({ purchaseOrderId: m.purchaseOrderLine.purchaseOrderId, lineId: 'line_nope' }),
        { body: { quantity: 1 }, op: 'updatePurchaseOrderLine' },
      );
      expectProblem(lineMissing, 404, 'COMMON.ENTITY.NOT_FOUND');
      const orderMissing = await h.call(
        'PUT',
        linePath({ purchaseOrderId: 'po_nope', lineId: m.purchaseOrderLine.lineId }),
        { body: { quantity: 1 }, op: 'updatePurchaseOrderLine' },
      );
      expectProblem(orderMissing, 404, 'COMMON.ENTITY.NOT_FOUND');
    });

    it('answers an empty change with 400', async () => {
      const reply = await h.call('PUT', linePath(m.purchaseOrderLine), { body: {}, op: 'updatePurchaseOrderLine' });
      expectProblem(reply, 400, 'COMMON.VALIDATION.ERROR');
    });
  });

  describe('the error catalog', () => {
    it(`answers every one of the ${ERROR_CODES.length} codes with 200 and its entry`, async () => {
      expect(ERROR_CODES).toHaveLength(478);
      const codes = [...ERROR_CODES];
      for (let i = 0; i < codes.length; i += 20) {
        const batch = codes.slice(i, i + 20);
        const replies = await Promise.all(batch.map((code) => h.call('GET', `/v1/errors/${code}`, { op: 'getError' })));
        replies.forEach((reply, j) => {
          const code = batch[j]!;
          expect(reply.status, code).toBe(200);
          const entry = catalogEntry(code)!;
          expect(reply.body).toMatchObject({
            code,
            title: entry.title,
            description: entry.description,
            status: entry.status,
          });
          expect(reply.body.parameters.map((p: { key: string }) => p.key)).toEqual(entry.parameters.map((p) => p.key));
        });
      }
    });

    it('answers an unknown code with 404 COMMON.ENTITY.NOT_FOUND', async () => {
      const reply = await h.call('GET', '/v1/errors/COMMON.NO.SUCH_CODE', { op: 'getError' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND', 'GET /v1/errors/COMMON.NO.SUCH_CODE');
    });

    it('answers a code in the wrong case with 404', async () => {
      const reply = await h.call('GET', `/v1/errors/${ERROR_CODES[0]!.toLowerCase()}`, { op: 'getError' });
      expectProblem(reply, 404, 'COMMON.ENTITY.NOT_FOUND');
    });
  });
});
