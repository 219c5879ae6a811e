import { expected, expectedStatus } from '../contract/decided.js';
import type { CheckContext, CheckDef } from '../context.js';
import type { Exchange } from '../wire/client.js';
import { expectProblem, isSuccess, nonce, pageOf } from '../helpers.js';
import { subscriptionWriteChecks } from './subscription-writes.js';

/** Creates one API key per run: the creation check judges the answer, the key-alone check uses the key. */
function createKey(c: CheckContext): Promise<{ ex: Exchange; name: string }> {
  return c.run.memo('writes:api-key', async () => {
    const name = `opsapi conform ${nonce()}`;
    const ex = await c.run.client.send('writes.api-key', {
      method: 'POST',
      path: '/v1/access/apiKeys',
      json: { name },
    });
    const key = (ex.json as { key?: unknown } | undefined)?.key;
    if (typeof key === 'string') c.run.redactor.add(key);
    if (isSuccess(ex))
      c.run.notes.push('An API key named "opsapi conform …" was created (the contract has no operation to delete it).');
    return { ex, name };
  });
}

/** The stock update both stock checks judge (sent once per run). */
function stockUpdate(c: CheckContext): Promise<Exchange> {
  const sku = need(c, c.run.data.sku, 'SKU');
  return c.run.memo('writes:stock-update', () =>
    c.run.client.send('writes.stock-update-204', {
      method: 'PUT',
      path: STOCK(sku.reference),
      json: { locationReference: sku.locationReference, lotId: sku.lotId, stock: 7, comment: 'opsapi conform' },
    }),
  );
}

/**
 * Invalid stock update bodies. `documented`: the reference binds a refusal (the body is not JSON: "requests and
 * responses are JSON"; `stock` is not a number: "stock | number"); the others (an empty body, a negative stock)
 * are invalid by the contract's decisions only ("Which body fields are required ...: not shown").
 */
function invalidStockBodies(sku: { locationReference: string }) {
  return [
    { body: { json: {} }, what: 'an empty body', documented: false },
    {
      body: { json: { locationReference: sku.locationReference, stock: -5 } },
      what: 'a negative stock',
      documented: false,
    },
    {
      body: { json: { locationReference: sku.locationReference, stock: 'many' } },
      what: 'a text stock',
      documented: true,
    },
    { body: { raw: '{"locationReference": ' }, what: 'broken JSON', documented: true },
  ];
}

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
      title: 'A stock update succeeds with no content: a 2xx without a body',
      clause: 'Endpoints / Update SKU stock ("Success: no content (no response body)")',
      level: 'MUST',
      async run(c) {
        const ex = await stockUpdate(c);
        const sku = need(c, c.run.data.sku, 'SKU');
        c.exercised(sku.reference);
        c.expect(isSuccess(ex), `PUT ${STOCK(sku.reference)}`, ex, 'a 2xx', String(ex.status));
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
      id: 'writes.stock-update-204-status',
      title: 'A stock update answers exactly 204',
      clause: 'Endpoints / Update SKU stock (the success status is not shown beyond "no content")',
      level: 'SHOULD',
      async run(c) {
        const ex = await stockUpdate(c);
        c.exercised();
        const status = expected<'success-status'>(c.run, 'success-status:updateSkuStock', 204);
        c.expect(ex.status === status, `PUT ${ex.path}`, ex, String(status), String(ex.status));
      },
    },
    {
      ...base,
      id: 'writes.stock-update-400',
      title: 'A stock update body that is not JSON, or whose stock is not a number, is refused with a 4xx problem',
      clause: 'Endpoints / Update SKU stock (400; "stock: number"); Resources / Stock update body',
      level: 'MUST',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        for (const k of invalidStockBodies(sku).filter((b) => b.documented)) {
          const ex = await c.send({ method: 'PUT', path: STOCK(sku.reference), ...k.body });
          c.exercised(k.what);
          // Which status and code answer an invalid body is not shown: a 4xx problem is what the reference binds.
          expectProblem(c, ex, 400, null, `stock update with ${k.what}`, true);
        }
      },
    },
    {
      ...base,
      id: 'writes.stock-update-400.inferred',
      title: 'An invalid stock update body gives 400 COMMON.VALIDATION.ERROR',
      clause: 'Endpoints / Update SKU stock (400; the code and which fields are required are not shown)',
      level: 'SHOULD',
      async run(c) {
        const sku = need(c, c.run.data.sku, 'SKU');
        for (const k of invalidStockBodies(sku)) {
          const ex = await c.send({ method: 'PUT', path: STOCK(sku.reference), ...k.body });
          c.exercised(k.what);
          expectProblem(
            c,
            ex,
            expectedStatus(c.run, 'COMMON.VALIDATION.ERROR', 400),
            'COMMON.VALIDATION.ERROR',
            `stock update with ${k.what}`,
          );
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
      title:
        'A stock update in a unit the SKU does not have gives a 4xx COMMON.QUANTITY.UNIT_NOT_CONFIGURED (422 expected)',
      clause: 'Endpoints / Update SKU stock (422); Errors / Error code catalog (COMMON.QUANTITY.UNIT_NOT_CONFIGURED)',
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
        // The code names the condition; its status is not given by a status and code pair: a 4xx is MUST here and
        // the exact 422 (the status the stock update shows) is compared by errors.status-code-pair.inferred.
        expectProblem(
          c,
          ex,
          422,
          'COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
          `PUT ${STOCK(sku.reference)} in unit ${unit}`,
          true,
        );
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
      title:
        'An API key is created with its key, and is accepted in X-Api-Key beside the bearer token on a list request',
      clause: 'Endpoints / Create an API key; Authentication, point 2',
      level: 'MUST',
      async run(c) {
        const { ex, name } = await createKey(c);
        const b = ex.json as
          | { id?: unknown; key?: unknown; name?: unknown; orgCode?: unknown; isActive?: unknown }
          | undefined;
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
        // "An API key ... is also sent in an X-Api-Key header in list requests": beside the bearer token.
        const main = c.run.credentials.main as string;
        const use = await c.send({
          method: 'GET',
          path: '/v1/items/skus',
          query: { pageSize: 1 },
          auth: { headers: { Authorization: `Bearer ${main}`, 'X-Api-Key': b.key } },
        });
        c.exercised('use');
        c.expect(
          isSuccess(use),
          'GET /v1/items/skus with the bearer token and X-Api-Key',
          use,
          'a 2xx',
          String(use.status),
        );
      },
    },
    {
      ...base,
      id: 'writes.api-key-alone',
      title: 'The API key alone (X-Api-Key without a bearer token) authenticates a list request',
      clause: 'Authentication, point 2 (the key is sent "also"; whether it suffices alone is the contract\'s decision)',
      level: 'SHOULD',
      async run(c) {
        const key = ((await createKey(c)).ex.json as { key?: unknown } | undefined)?.key;
        if (typeof key !== 'string') return c.skip('the target created no API key (see writes.api-key)');
        const use = await c.send({
          method: 'GET',
          path: '/v1/items/skus',
          query: { pageSize: 1 },
          auth: { apiKey: key },
        });
        c.exercised('use');
        if (expected<'api-key-alone'>(c.run, 'api-key-alone', 'accepted') === 'refused')
          c.expect(
            use.status === 401,
            'GET /v1/items/skus with X-Api-Key only',
            use,
            '401 (refused, as observed)',
            String(use.status),
          );
        else c.expect(isSuccess(use), 'GET /v1/items/skus with X-Api-Key only', use, 'a 2xx', String(use.status));
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
        const deleted = expected<'success-status'>(c.run, 'success-status:deleteFamily', 204);
        c.expect(del.status === deleted, `DELETE ${path}`, del, String(deleted), String(del.status));
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
        expectProblem(
          c,
          again,
          expectedStatus(c.run, 'ITEMS.FAMILY.ALREADY_DELETED', 409),
          'ITEMS.FAMILY.ALREADY_DELETED',
          `DELETE ${path} again`,
        );
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
        const status = expected<'success-status'>(c.run, 'success-status:updatePurchaseOrderLine', 200);
        c.expect(
          ex.status === status && b?.comment === comment,
          `PUT ${path}`,
          ex,
          `${status} with comment "${comment}"`,
          `${ex.status} ${String(b?.comment)}`,
        );
      },
    },
  ];
}
