import type { DataManifest } from '../../common/data-manifest.js';
import { OPERATIONS } from '../../spec/operations/index.js';

/** A call to the mock as the caller's tenant (its bearer token added by the caller): status and parsed body. */
export type TenantCall = (
  method: string,
  path: string,
  options?: { headers?: Record<string, string>; body?: unknown },
) => Promise<{ status: number; body: any }>;

/** A purchase order line with something received and something still open: the only way to QUANTITY_LESS_THAN_RECEIVED. */
interface PartlyReceivedLine {
  readonly purchaseOrderId: string;
  readonly lineId: string;
  readonly receivedQuantity: number;
}

/** What one step expects: the status, and the problem code when it names one. */
interface Step {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly status: number;
  readonly code?: string;
}

/** A path template with every parameter set to `value` (a forced answer never reads them). */
function anyPath(template: string, value = 'x'): string {
  return template.replace(/\{\w+\}/g, value);
}

/**
 * The suite of a client that meets every answer the contract declares: each operation's success on real records,
 * each declared error status forced with `Prefer: code=<status>` (the mock answers the status's first code), and the
 * other codes of a status provoked for real. Every step's answer is checked, so a step that stops provoking its
 * answer fails here rather than as a coverage gap. Bounded: about 150 requests, in order.
 */
export async function hitEveryPair(call: TenantCall, m: DataManifest, line: PartlyReceivedLine): Promise<void> {
  const run = async (step: Step): Promise<{ status: number; body: any }> => {
    const reply = await call(step.method, step.path, {
      ...(step.body !== undefined ? { body: step.body } : {}),
      ...(step.headers ? { headers: step.headers } : {}),
    });
    const got = `${reply.status}${reply.body?.code ? ` ${reply.body.code}` : ''}`;
    const want = `${step.status}${step.code ? ` ${step.code}` : ''}`;
    if (got !== want && !(step.code === undefined && reply.status === step.status)) {
      throw new Error(
        `${step.method} ${step.path}: expected ${want}, got ${got}: ${JSON.stringify(reply.body).slice(0, 300)}`,
      );
    }
    return reply;
  };

  // Successes, in an order where each record exists when it is used.
  const sub = await run({
    method: 'POST',
    path: '/v1/notifications/webhook/subscriptions',
    body: { endpoint: 'http://127.0.0.1:9/hook', eventName: 'Items.Sku.Created', eventVersion: 1 },
    status: 201,
  });
  const emitted = await run({
    method: 'POST',
    path: '/__mock/events',
    body: { eventName: 'Items.Sku.Created' },
    status: 202,
  });
  const notification = String(emitted.body.notifications[0]);
  const skuPath = `/v1/items/skus/${encodeURIComponent(m.sku.reference)}`;
  const linePath = (l: { purchaseOrderId: string; lineId: string }) =>
    `/v1/planning/purchaseOrders/${encodeURIComponent(l.purchaseOrderId)}/lines/${encodeURIComponent(l.lineId)}`;
  const successes: Step[] = [
    { method: 'POST', path: '/v1/access/apiKeys', body: { name: 'coverage' }, status: 201 },
    { method: 'GET', path: '/v1/notifications/webhook/subscriptions', status: 200 },
    { method: 'GET', path: '/v1/notifications/webhook', status: 200 },
    { method: 'GET', path: `/v1/notifications/webhook/${notification}`, status: 200 },
    { method: 'GET', path: `/v1/notifications/webhook/${notification}/attempts`, status: 200 },
    { method: 'POST', path: `/v1/notifications/webhook/${notification}/retry`, status: 202 },
    {
      method: 'DELETE',
      path: `/v1/notifications/webhook/subscriptions/${encodeURIComponent(String(sub.body.id))}`,
      status: 204,
    },
    { method: 'GET', path: '/v1/notifications/events', status: 200 },
    { method: 'GET', path: '/v1/notifications/events/versions', status: 200 },
    {
      method: 'PUT',
      path: `${skuPath}/stock`,
      body: { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: 5 },
      status: 204,
    },
    {
      method: 'PUT',
      path: `${skuPath}/inspections/${encodeURIComponent(m.sku.inspectionIds[0] ?? '')}`,
      body: { name: 'covered', isMandatory: true },
      status: 200,
    },
    { method: 'GET', path: '/v1/errors/COMMON.ENTITY.NOT_FOUND', status: 200 },
    { method: 'GET', path: '/v1/items/skus', status: 200 },
    { method: 'POST', path: '/v1/items/families/search', body: {}, status: 200 },
    { method: 'DELETE', path: `/v1/items/families/${encodeURIComponent(m.deletableFamilyId)}`, status: 204 },
    { method: 'GET', path: '/v1/maintenance/assets', status: 200 },
    { method: 'GET', path: '/v1/admin/tenants/self', status: 200 },
    { method: 'PUT', path: linePath(m.purchaseOrderLine), body: { comment: 'covered' }, status: 200 },
  ];
  for (const step of successes) await run(step);

  // Each declared error status, forced.
  for (const op of OPERATIONS) {
    for (const status of new Set(op.errors.map((e) => e.status))) {
      const code = op.errors.find((e) => e.status === status)?.codes[0];
      await run({
        method: op.method.toUpperCase(),
        path: anyPath(op.path),
        ...(op.requestBody ? { body: {} } : {}),
        headers: { prefer: `code=${status}` },
        status,
        ...(code ? { code } : {}),
      });
    }
  }

  // The other codes of a status, provoked.
  for (const op of OPERATIONS.filter((o) => o.list)) {
    // The one list under a record (a notification's attempts) needs the record to exist.
    const path = anyPath(op.path, notification);
    const codes = op.errors.flatMap((e) => e.codes);
    const inBody = op.list?.parametersIn === 'body';
    const ask = (params: Record<string, unknown>): Pick<Step, 'path' | 'body'> =>
      inBody
        ? { path, body: params }
        : {
            path: `${path}?${new URLSearchParams(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])))}`,
          };
    if (codes.includes('COMMON.QUERY.SORTING_PARSING_FAILED'))
      await run({
        method: op.method.toUpperCase(),
        ...ask({ sortBy: 'NoSuchField' }),
        status: 400,
        code: 'COMMON.QUERY.SORTING_PARSING_FAILED',
      });
    if (codes.includes('COMMON.VALIDATION.ERROR'))
      await run({
        method: op.method.toUpperCase(),
        ...ask({ pageSize: 0 }),
        status: 400,
        code: 'COMMON.VALIDATION.ERROR',
      });
  }
  const subscriptions = '/v1/notifications/webhook/subscriptions';
  await run({
    method: 'POST',
    path: subscriptions,
    body: { endpoint: 'ftp://127.0.0.1/hook', eventName: 'Items.Sku.Created', eventVersion: 1 },
    status: 400,
    code: 'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
  });
  await run({
    method: 'POST',
    path: subscriptions,
    body: { eventName: 'Items.Sku.Created' },
    status: 400,
    code: 'COMMON.VALIDATION.ERROR',
  });
  for (const path of [
    '/v1/access/apiKeys',
    `${skuPath}/stock`,
    `${skuPath}/inspections/${encodeURIComponent(m.sku.inspectionIds[0] ?? '')}`,
    linePath(m.purchaseOrderLine),
  ]) {
    await run({
      method: path.endsWith('apiKeys') ? 'POST' : 'PUT',
      path,
      body: { unexpected: true },
      status: 400,
      code: 'COMMON.VALIDATION.ERROR',
    });
  }
  await run({
    method: 'PUT',
    path: `${skuPath}/stock`,
    body: { locationReference: m.sku.locationReference, lotId: m.sku.lotId, stock: 0.1234567891 },
    status: 422,
    code: 'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED',
  });
  await run({
    method: 'PUT',
    path: linePath(m.receivedPurchaseOrderLine),
    body: { comment: 'late' },
    status: 422,
    code: 'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE',
  });
  await run({
    method: 'PUT',
    path: linePath(line),
    body: { quantity: line.receivedQuantity / 2 },
    status: 422,
    code: 'PLANNING.PURCHASE_ORDER.QUANTITY_LESS_THAN_RECEIVED',
  });
}
