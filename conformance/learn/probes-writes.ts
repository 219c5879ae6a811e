import { eventVersions, forget, seedData, SUBSCRIPTIONS, subscribe } from '../observe/subscriptions.js';
import { isSuccess, nonce } from '../helpers.js';
import type { Probe, ProbeContext } from './probe.js';

/**
 * Writes that show statuses the reference leaves open (Endpoints: "Success status code: not shown", "Status codes of
 * all other error codes: not shown"): subscriptions refused and one created and deleted, and with `--data` (records a
 * deployment lets the run change) a stock update, a stock update in a unit the SKU does not have, an invalid body,
 * an inspection and a line updated, a cancelled and a received line modified, and a family deleted twice. Every
 * status and record is scanned; like `opsapi conform`, the run uses up the data's deletable family.
 */

const enc = encodeURIComponent;
const STOCK = (reference: string) => `/v1/items/skus/${enc(reference)}/stock`;
const LINE = (po: string, line: string) => `/v1/planning/purchaseOrders/${enc(po)}/lines/${enc(line)}`;

/** Subscriptions to an unknown event and to an invalid URL, and one created and deleted again. */
const subscriptions: Probe = {
  name: 'subscriptions',
  kind: 'write',
  points: () => [
    'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
    'code-status:NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
    'success-status:createWebhookSubscription',
    'success-status:deleteWebhookSubscription',
    'record-fields:createWebhookSubscription',
  ],
  async run(p) {
    // Subscriptions for the lists to read, deleted at the end like the runner's (its state phase seeds the same).
    await seedData(p.run).catch((error: Error) => p.run.notes.push(`Seeding subscriptions failed: ${error.message}`));
    const event = (await eventVersions(p.run))[0];
    if (!event) throw new Error('the events endpoints list no event to subscribe to');
    const endpoint = `https://opsapi-learn.invalid/hooks/${nonce()}`;
    const post = (json: unknown) => p.send({ method: 'POST', path: SUBSCRIPTIONS, json });
    await post({ endpoint, eventName: 'Opsapi.Learn.NoSuchEvent', eventVersion: 1 });
    await post({ endpoint: 'not a url', eventName: event.eventName, eventVersion: event.eventVersion });
    const made = await subscribe(p.run, 'learn', event.eventName, event.eventVersion, endpoint);
    if (made.id && isSuccess(await p.send({ method: 'DELETE', path: `${SUBSCRIPTIONS}/${enc(made.id)}` })))
      forget(p.run, made.id);
    await p.send({ method: 'DELETE', path: `${SUBSCRIPTIONS}/opsapi-learn-no-such-${nonce()}` });
  },
};

/** What a probe of the data cannot do without it. */
function needs(p: ProbeContext, ids: string[], what: string): void {
  for (const id of ids) p.seen.cannot(id, `needs ${what} in --data (the GET /__mock/fixtures format)`);
}

/** Stock updates (Endpoints / Update SKU stock) and an inspection update. */
const stock: Probe = {
  name: 'stock and inspections',
  kind: 'write',
  points: () => [
    'success-status:updateSkuStock',
    'code-status:COMMON.QUANTITY.UNIT_NOT_CONFIGURED',
    'success-status:updateSkuInspection',
    'record-fields:updateSkuInspection',
  ],
  async run(p) {
    const sku = p.run.data.sku;
    if (!sku) return needs(p, this.points(), 'a SKU (sku)');
    const at = { locationReference: sku.locationReference, lotId: sku.lotId };
    await p.send({ method: 'PUT', path: STOCK(sku.reference), json: { ...at, stock: 7, comment: 'opsapi learn' } });
    await p.send({ method: 'PUT', path: STOCK(sku.reference), json: {} });
    const unit = p.run.data.unknownUnitOfMeasureId;
    if (unit)
      await p.send({
        method: 'PUT',
        path: STOCK(sku.reference),
        json: { ...at, stock: 3, stockUnitOfMeasureId: unit },
      });
    else
      needs(p, ['code-status:COMMON.QUANTITY.UNIT_NOT_CONFIGURED'], 'a unit not configured (unknownUnitOfMeasureId)');
    const inspection = sku.inspectionIds?.[0];
    if (inspection)
      await p.send({
        method: 'PUT',
        path: `/v1/items/skus/${enc(sku.reference)}/inspections/${enc(inspection)}`,
        json: { name: `opsapi learn ${nonce()}`, isMandatory: false },
      });
  },
};

/** Purchase order lines: a modifiable one updated, a cancelled and a received one refused. */
const lines: Probe = {
  name: 'purchase order lines',
  kind: 'write',
  points: () => [
    'success-status:updatePurchaseOrderLine',
    'record-fields:updatePurchaseOrderLine',
    'code-status:PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE',
  ],
  async run(p) {
    const { purchaseOrderLine, cancelledPurchaseOrderLine, receivedPurchaseOrderLine } = p.run.data;
    if (purchaseOrderLine)
      await p.send({
        method: 'PUT',
        path: LINE(purchaseOrderLine.purchaseOrderId, purchaseOrderLine.lineId),
        json: { comment: `opsapi learn ${nonce()}` },
      });
    else needs(p, ['success-status:updatePurchaseOrderLine'], 'a modifiable line (purchaseOrderLine)');
    for (const line of [cancelledPurchaseOrderLine, receivedPurchaseOrderLine])
      if (line)
        await p.send({
          method: 'PUT',
          path: LINE(line.purchaseOrderId, line.lineId),
          json: { comment: 'opsapi learn', quantity: 1 },
        });
    if (!receivedPurchaseOrderLine)
      needs(p, ['code-status:PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE'], 'a received line');
  },
};

/** A family deleted, then deleted again: the success status and the status of ITEMS.FAMILY.ALREADY_DELETED. */
const family: Probe = {
  name: 'family deletion',
  kind: 'write',
  points: () => ['success-status:deleteFamily', 'code-status:ITEMS.FAMILY.ALREADY_DELETED'],
  async run(p) {
    const id = p.run.data.deletableFamilyId;
    if (!id) return needs(p, this.points(), 'a family with no SKUs (deletableFamilyId)');
    const path = `/v1/items/families/${enc(id)}`;
    // A family the data offers but another run deleted already shows the second answer at once.
    if (isSuccess(await p.send({ method: 'DELETE', path }))) await p.send({ method: 'DELETE', path });
  },
};

export const WRITE_PROBES: readonly Probe[] = [subscriptions, stock, lines, family];
