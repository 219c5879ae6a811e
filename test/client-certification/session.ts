import type { ReferenceClient } from './client.js';
import type { RunningReceiver } from './receiver.js';

/**
 * A representative run of the reference client, as an integration goes live: it checks its credentials, walks a
 * filtered and sorted list to its last page, subscribes its receiver to the stock event (names and versions read from
 * the environment), and updates a stock level, which makes the service announce the change to the receiver; the
 * receiver then reads the SKU's state. Each step stands alone: one that fails (a fault, a request given up) is
 * recorded and the next one runs, as in a client whose jobs are independent.
 */

export interface SessionOptions {
  /** Walk the SKU list (default true). */
  walk?: boolean;
  /** Subscribe the receiver (default true). */
  subscribe?: boolean;
  /** A SKU of the tenant and where its stock lives (the tenant's fixtures). */
  sku: { reference: string; locationReference: string; lotId: string; baseUnitOfMeasureId: string };
  /** The page size of the walk: small enough for the filter to give several pages. */
  pageSize: number;
}

/** The filter of the walk: two conditions joined by `&&` (List and search endpoints, "Filter combination"). */
const WALK_FILTER = 'status[Equals]Active && totalStock[Gte]0';
/** The event the receiver subscribes to: the one a stock update emits. */
const STOCK_EVENT = 'Warehouse.Stock.Updated';

interface SessionResult {
  /** Steps that failed, with why (the session went on). */
  failed: { step: string; error: string }[];
  walked: number;
}

export async function runSession(
  client: ReferenceClient,
  receiver: RunningReceiver,
  options: SessionOptions,
): Promise<SessionResult> {
  const failed: SessionResult['failed'] = [];
  let walked = 0;
  const step = async (name: string, run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      failed.push({ step: name, error: error instanceof Error ? error.message : String(error) });
    }
  };
  await step('credentials', () => client.send({ method: 'GET', path: '/v1/admin/tenants/self' }));
  if (options.walk !== false)
    await step('walk', async () => {
      const skus = await client.walk('/v1/items/skus', {
        pageSize: options.pageSize,
        filterBy: WALK_FILTER,
        sortBy: 'reference',
      });
      walked = skus.length;
    });
  if (options.subscribe !== false) await step('subscribe', () => client.subscribe(receiver.url, STOCK_EVENT));
  await step('stock', () => countStock(client, options.sku));
  return { failed, walked };
}

/** Sets the stock of a SKU at its location, which makes the service announce the change (`Warehouse.Stock.Updated`). */
function countStock(client: ReferenceClient, sku: SessionOptions['sku']): Promise<void> {
  return client.updateStock(sku.reference, {
    locationReference: sku.locationReference,
    stock: 40,
    lotId: sku.lotId,
    comment: 'Cycle count',
    stockUnitOfMeasureId: sku.baseUnitOfMeasureId,
  });
}
