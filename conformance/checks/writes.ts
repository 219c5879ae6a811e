import type { CheckContext, CheckDef } from '../context.js';
import { expectProblem, nonce, pageOf } from '../helpers.js';
import { subscriptionWriteChecks } from './subscription-writes.js';

export { eventVersions, seedData, subscribe } from './subscriptions.js';

function need<T>(c: CheckContext, value: T | undefined, what: string): T {
  if (value === undefined || value === null) c.skip(`no ${what} known: pass --data (the GET /__mock/fixtures format)`);
  return value as T;
}

const STOCK = (reference: string) => `/v1/items/skus/${encodeURIComponent(reference)}/stock`;
const INSPECTION = (reference: string, id: string) =>
  `/v1/items/skus/${encodeURIComponent(reference)}/inspections/${encodeURIComponent(id)}`;
const LINE = (po: string, line: string) =>
  `/v1/planning/purchaseOrders/${encodeURIComponent(po)}/lines/${encodeURIComponent(line)}`;

const base = { family: 'writes' as const, requires: ['writes' as const], phase: 'state' as const };

export function writeChecks(): CheckDef[] {
  return [
    {
      ...base,
      id: 'writes.stock-update-204',
      title: 'A stock update answers 204 without a body',
      clause: 'Endpoints / Update SKU stock',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const ex = await c.send({
          method: 'PUT',
          path: STOCK(sku.reference),
          json: { locationReference: sku.locationReference, lotId: sku.lotId, stock: 7, comment: 'opsapi conform' },
        });
        c.exercised(sku.reference);
        c.expect(ex.status === 204, `PUT ${STOCK(sku.reference)}`, ex, '204', String(ex.status));
        c.expect(
          ex.text.length === 0,
          `PUT ${STOCK(sku.reference)}: the answer has a body`,
          ex,
          'no body',
          ex.text.slice(0, 120),
        );
      },
    },
    {
      ...base,
      id: 'writes.stock-update-400',
      title: 'An invalid stock update body gives 400 COMMON.VALIDATION.ERROR',
      clause: 'Endpoints / Update SKU stock (400)',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const cases: { json?: unknown; raw?: string; what: string }[] = [
          { json: {}, what: 'an empty body' },
          { json: { locationReference: sku.locationReference, stock: -5 }, what: 'a negative stock' },
          { json: { locationReference: sku.locationReference, stock: 'many' }, what: 'a text stock' },
          { raw: '{"locationReference": ', what: 'broken JSON' },
        ];
        for (const k of cases) {
          const ex = await c.send({
            method: 'PUT',
            path: STOCK(sku.reference),
            ...(k.raw !== undefined ? { raw: k.raw } : { json: k.json }),
          });
          c.exercised(k.what);
          expectProblem(c, ex, 400, 'COMMON.VALIDATION.ERROR', `stock update with ${k.what}`);
        }
      },
    },
    {
      ...base,
      id: 'writes.stock-update-404',
      title: 'A stock update of an unknown SKU gives 404 COMMON.ENTITY.NOT_FOUND',
      clause: 'Errors / Status and code pairs (404: an addressed entity does not exist)',
      level: 'SHOULD',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const path = STOCK(`CONFORM-NO-SUCH-SKU-${nonce()}`);
        const ex = await c.send({ method: 'PUT', path, json: { locationReference: sku.locationReference, stock: 1 } });
        c.exercised(path);
        expectProblem(c, ex, 404, 'COMMON.ENTITY.NOT_FOUND', `PUT ${path}`);
      },
    },
    {
      ...base,
      id: 'writes.stock-update-422',
      title: 'A stock update in a unit the SKU does not have gives 422',
      clause: 'Endpoints / Update SKU stock (422)',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const unit = need(c, c.run.data.unknownUnitOfMeasureId, 'unit of measure not configured for the SKU');
        const ex = await c.send({
          method: 'PUT',
          path: STOCK(sku.reference),
          json: { locationReference: sku.locationReference, lotId: sku.lotId, stock: 3, stockUnitOfMeasureId: unit },
        });
        c.exercised(unit);
        c.expect(ex.status === 422, `PUT ${STOCK(sku.reference)} in unit ${unit}`, ex, '422', String(ex.status));
      },
    },
    {
      ...base,
      id: 'writes.inspection-update',
      title: 'An inspection update returns the definition with the new name and flag',
      clause: 'Endpoints / Update a SKU inspection definition',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const id = need(c, sku.inspectionIds?.[0], 'inspection');
        for (const isMandatory of [true, false]) {
          const name = `Conformance check ${nonce()}`;
          const ex = await c.send({ method: 'PUT', path: INSPECTION(sku.reference, id), json: { name, isMandatory } });
          c.exercised(`isMandatory=${isMandatory}`);
          const b = ex.json as { id?: unknown; name?: unknown; isMandatory?: unknown } | undefined;
          if (
            !c.expect(
              ex.status >= 200 && ex.status < 300 && !!b,
              `PUT ${INSPECTION(sku.reference, id)}`,
              ex,
              '2xx with the definition',
              String(ex.status),
            ) ||
            !b
          )
            continue;
          c.expect(
            b.name === name && b.isMandatory === isMandatory && b.id === id,
            `PUT ${INSPECTION(sku.reference, id)}: the answer does not reflect the update`,
            ex,
            JSON.stringify({ id, name, isMandatory }),
            JSON.stringify({ id: b.id, name: b.name, isMandatory: b.isMandatory }),
          );
        }
      },
    },
    {
      ...base,
      id: 'writes.inspection-404',
      title: 'Updating an unknown inspection gives 404 COMMON.ENTITY.NOT_FOUND',
      clause: 'Endpoints / Update a SKU inspection definition (404)',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        const path = INSPECTION(sku.reference, `conform-no-such-inspection-${nonce()}`);
        const ex = await c.send({ method: 'PUT', path, json: { name: 'x', isMandatory: false } });
        c.exercised(path);
        expectProblem(c, ex, 404, 'COMMON.ENTITY.NOT_FOUND', `PUT ${path}`);
      },
    },
    {
      ...base,
      id: 'writes.api-key',
      title: 'An API key is created with its key, and the key alone authenticates a list request',
      clause: 'Endpoints / Create an API key; Authentication, point 2',
      level: 'MUST',
      async run(c) {
        const name = `opsapi conform ${nonce()}`;
        const ex = await c.send({ method: 'POST', path: '/v1/access/apiKeys', json: { name } });
        const b = ex.json as
          | { id?: unknown; key?: unknown; name?: unknown; orgCode?: unknown; isActive?: unknown }
          | undefined;
        if (typeof b?.key === 'string') c.run.redactor.add(b.key);
        c.exercised('create');
        if (
          !c.expect(
            ex.status >= 200 && ex.status < 300 && !!b,
            'POST /v1/access/apiKeys',
            ex,
            '2xx with the key',
            String(ex.status),
          ) ||
          !b
        )
          return;
        c.run.notes.push(
          'An API key named "opsapi conform …" was created (the contract has no operation to delete it).',
        );
        c.expect(
          typeof b.id === 'string' &&
            typeof b.key === 'string' &&
            b.name === name &&
            typeof b.orgCode === 'string' &&
            b.isActive === true,
          'POST /v1/access/apiKeys: fields',
          ex,
          `id, key, name "${name}", orgCode, isActive true`,
          JSON.stringify({ ...b, key: '<redacted>' }),
        );
        if (typeof b.key !== 'string') return;
        const use = await c.send({
          method: 'GET',
          path: '/v1/notifications/events',
          query: { pageSize: 1 },
          auth: { apiKey: b.key },
        });
        c.exercised('use');
        c.expect(
          use.status === 200 && pageOf(use) !== undefined,
          'GET /v1/notifications/events with X-Api-Key only',
          use,
          '200 with a page',
          String(use.status),
        );
      },
    },
    ...subscriptionWriteChecks(),
    {
      ...base,
      id: 'writes.family-delete',
      title:
        'A family is deleted (204), disappears from search, and a second delete gives 409 ITEMS.FAMILY.ALREADY_DELETED',
      clause:
        'Errors / Error code catalog (ITEMS.FAMILY.ALREADY_DELETED); DELETE /v1/items/families/{id} is named in error messages only',
      level: 'SHOULD',
      async run(c) {
        const id = need(c, c.run.data.deletableFamilyId, 'deletable family');
        const path = `/v1/items/families/${encodeURIComponent(id)}`;
        const del = await c.send({ method: 'DELETE', path });
        c.exercised('delete');
        c.expect(del.status === 204, `DELETE ${path}`, del, '204', String(del.status));
        const search = await c.send({
          method: 'POST',
          path: '/v1/items/families/search',
          json: { filterBy: `id[Equals]${id}` },
        });
        const page = pageOf(search);
        c.expect(
          search.status === 200 && page?.totalCount === 0,
          'POST /v1/items/families/search: the deleted family is still found',
          search,
          '0 items',
          page ? String(page.totalCount) : String(search.status),
        );
        const again = await c.send({ method: 'DELETE', path });
        c.exercised('delete again');
        expectProblem(c, again, 409, 'ITEMS.FAMILY.ALREADY_DELETED', `DELETE ${path} again`);
      },
    },
    {
      ...base,
      id: 'writes.cancelled-line-422',
      title: 'Modifying a cancelled purchase order line gives 422 PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
      clause: 'Errors / Status and code pairs (422)',
      level: 'MUST',
      async run(c) {
        const line = need(c, c.run.data.cancelledPurchaseOrderLine, 'cancelled purchase order line');
        const path = LINE(line.purchaseOrderId, line.lineId);
        const ex = await c.send({ method: 'PUT', path, json: { comment: 'opsapi conform', quantity: 1 } });
        c.exercised(path);
        expectProblem(c, ex, 422, 'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE', `PUT ${path}`);
      },
    },
    {
      ...base,
      id: 'writes.purchase-order-line-update',
      title: 'A modifiable purchase order line is updated and returned',
      clause: 'PUT /v1/planning/purchaseOrders/{id}/lines/{lineId} is named in error messages only',
      level: 'SHOULD',
      async run(c) {
        const line = need(c, c.run.data.purchaseOrderLine, 'modifiable purchase order line');
        const path = LINE(line.purchaseOrderId, line.lineId);
        const comment = `opsapi conform ${nonce()}`;
        const ex = await c.send({ method: 'PUT', path, json: { comment } });
        c.exercised(path);
        const b = ex.json as { comment?: unknown } | undefined;
        c.expect(
          ex.status === 200 && b?.comment === comment,
          `PUT ${path}`,
          ex,
          `200 with comment "${comment}"`,
          `${ex.status} ${String(b?.comment)}`,
        );
      },
    },
  ];
}
