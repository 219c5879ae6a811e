import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureManifest } from '../../fixtures/seed/index.js';
import { expectProblem, injectHarness, type InjectHarness } from './harness.js';

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
});
