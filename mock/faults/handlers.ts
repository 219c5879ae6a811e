import { ok, type Answer, type Handler, type HandlerContext } from '../handlers/context.js';
import { modifyPurchaseOrderLine } from '../handlers/planning.js';
import type { FaultName } from './registry.js';

/** A decorator of one operation's handler. */
type Wrap = (inner: Handler) => Handler;

/** What a wrapped handler answered, awaited. */
async function run(inner: Handler, ctx: HandlerContext): Promise<Answer> {
  return inner(ctx);
}

/**
 * `stock-update-200-body` (breaks Endpoints / Update SKU stock: 204 without a body): the same update, answered
 * 200 with the new total stock.
 */
const stockUpdate200: Wrap = (inner) => async (ctx) => {
  const answer = await run(inner, ctx);
  if (answer.kind !== 'ok' || answer.status !== 204) return answer;
  const reference = ctx.params.skuReference ?? '';
  return ok(200, { skuReference: reference, totalStock: ctx.tenant.skuRecords.get(reference)?.item.totalStock });
};

/** `unknown-error-code-200` (breaks Endpoints / Get an error from the catalog: 404 for an unknown code). */
const unknownErrorCode200: Wrap = (inner) => async (ctx) => {
  const answer = await run(inner, ctx);
  if (answer.kind !== 'problem' || answer.status !== 404) return answer;
  return ok(200, {
    code: ctx.params.errorCode ?? '',
    title: 'Unknown',
    description: 'Unknown error.',
    parameters: [],
    status: 400,
  });
};

/**
 * `cancelled-line-modifiable` (breaks the documented 422 PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE):
 * the update without its cancelled-line rule, every other rule kept.
 */
const cancelledLineModifiable: Wrap = () => modifyPurchaseOrderLine;

/** The handler faults, each with the operation it decorates. */
const HANDLER_FAULTS: Partial<Record<FaultName, { readonly operationId: string; readonly wrap: Wrap }>> = {
  'stock-update-200-body': { operationId: 'updateSkuStock', wrap: stockUpdate200 },
  'unknown-error-code-200': { operationId: 'getError', wrap: unknownErrorCode200 },
  'cancelled-line-modifiable': { operationId: 'updatePurchaseOrderLine', wrap: cancelledLineModifiable },
};

/** The handlers with the planted handler faults among `faults` wrapped around their operations; others unchanged. */
export function withHandlerFaults<H extends Readonly<Record<string, Handler>>>(
  handlers: H,
  faults: ReadonlySet<FaultName>,
): H {
  const planted = Object.entries(HANDLER_FAULTS).filter(([name]) => faults.has(name as FaultName));
  if (planted.length === 0) return handlers;
  const out: Record<string, Handler> = { ...handlers };
  for (const [, fault] of planted) {
    const inner = out[fault.operationId];
    if (inner) out[fault.operationId] = fault.wrap(inner);
  }
  return out as H;
}
