import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataManifest as FixtureManifest } from '../common/data-manifest.js';
import { adminClaims } from '../index.js';
import { startMockServer, type RunningMock } from '../index.js';
import { OPERATIONS } from '../spec/operations/index.js';
import type { components, paths } from '../spec/openapi.js';
import { generateClients, type GeneratedClients } from './support/generate-clients.js';

type Schemas = components['schemas'];

/** What one call through a generated client gave: the HTTP status and the parsed body (data or error). */
interface Outcome {
  status: number;
  body: any;
}

/** One function per operation of the contract, named by its operationId, each calling it through one client. */
interface Api {
  createApiKey(name: string): Promise<Outcome>;
  listWebhookSubscriptions(): Promise<Outcome>;
  createWebhookSubscription(body: Schemas['CreateSubscriptionBody']): Promise<Outcome>;
  deleteWebhookSubscription(id: string): Promise<Outcome>;
  listWebhookNotifications(): Promise<Outcome>;
  getWebhookNotification(id: string): Promise<Outcome>;
  listWebhookNotificationAttempts(id: string): Promise<Outcome>;
  retryWebhookNotification(id: string): Promise<Outcome>;
  listEvents(): Promise<Outcome>;
  listEventVersions(): Promise<Outcome>;
  updateSkuStock(skuReference: string, body: Schemas['StockUpdateBody']): Promise<Outcome>;
  updateSkuInspection(
    skuReference: string,
    inspectionId: string,
    body: Schemas['InspectionUpdateBody'],
  ): Promise<Outcome>;
  getError(errorCode: string): Promise<Outcome>;
  listSkus(): Promise<Outcome>;
  searchFamilies(body: Schemas['ListBody']): Promise<Outcome>;
  deleteFamily(id: string): Promise<Outcome>;
  listAssets(): Promise<Outcome>;
  getTenantSelf(): Promise<Outcome>;
  updatePurchaseOrderLine(id: string, lineId: string, body: Schemas['PurchaseOrderLineUpdateBody']): Promise<Outcome>;
}

/** The `{ data, error, response }` result both generated clients return. */
interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

async function outcome(call: Promise<FetchResult>): Promise<Outcome> {
  const result = await call;
  return { status: result.response.status, body: result.data ?? result.error };
}

/** The openapi-fetch client (typed by the openapi-typescript output, identical to spec/openapi.d.ts) as an Api. */
function openapiFetchApi(client: Client<paths>): Api {
  return {
    createApiKey: (name) => outcome(client.POST('/v1/access/apiKeys', { body: { name } })),
    listWebhookSubscriptions: () => outcome(client.GET('/v1/notifications/webhook/subscriptions')),
    createWebhookSubscription: (body) => outcome(client.POST('/v1/notifications/webhook/subscriptions', { body })),
    deleteWebhookSubscription: (id) =>
      outcome(client.DELETE('/v1/notifications/webhook/subscriptions/{id}', { params: { path: { id } } })),
    listWebhookNotifications: () => outcome(client.GET('/v1/notifications/webhook')),
    getWebhookNotification: (id) => outcome(client.GET('/v1/notifications/webhook/{id}', { params: { path: { id } } })),
    listWebhookNotificationAttempts: (id) =>
      outcome(client.GET('/v1/notifications/webhook/{id}/attempts', { params: { path: { id } } })),
    retryWebhookNotification: (id) =>
      outcome(client.POST('/v1/notifications/webhook/{id}/retry', { params: { path: { id } } })),
    listEvents: () => outcome(client.GET('/v1/notifications/events')),
    listEventVersions: () => outcome(client.GET('/v1/notifications/events/versions')),
    updateSkuStock: (skuReference, body) =>
      outcome(client.PUT('/v1/items/skus/{skuReference}/stock', { params: { path: { skuReference } }, body })),
    updateSkuInspection: (skuReference, inspectionId, body) =>
      outcome(
        client.PUT('/v1/items/skus/{skuReference}/inspections/{inspectionId}', {
          params: { path: { skuReference, inspectionId } },
          body,
        }),
      ),
    getError: (errorCode) =>
      outcome(
        client.GET('/v1/errors/{errorCode}', { params: { path: { errorCode: errorCode as Schemas['ErrorCode'] } } }),
      ),
    listSkus: () => outcome(client.GET('/v1/items/skus', { params: { query: { pageSize: 5 } } })),
    searchFamilies: (body) => outcome(client.POST('/v1/items/families/search', { body })),
    deleteFamily: (id) => outcome(client.DELETE('/v1/items/families/{id}', { params: { path: { id } } })),
    listAssets: () => outcome(client.GET('/v1/maintenance/assets')),
    getTenantSelf: () => outcome(client.GET('/v1/admin/tenants/self')),
    updatePurchaseOrderLine: (id, lineId, body) =>
      outcome(
        client.PUT('/v1/planning/purchaseOrders/{id}/lines/{lineId}', { params: { path: { id, lineId } }, body }),
      ),
  };
}

/** The SDK functions of the hey-api output (loaded at run time from the temporary folder, so typed loosely here). */
type HeyApiSdk = Record<keyof Api, (options?: object) => Promise<FetchResult>>;

function heyApiApi(sdk: HeyApiSdk): Api {
  return {
    createApiKey: (name) => outcome(sdk.createApiKey({ body: { name } })),
    listWebhookSubscriptions: () => outcome(sdk.listWebhookSubscriptions()),
    createWebhookSubscription: (body) => outcome(sdk.createWebhookSubscription({ body })),
    deleteWebhookSubscription: (id) => outcome(sdk.deleteWebhookSubscription({ path: { id } })),
    listWebhookNotifications: () => outcome(sdk.listWebhookNotifications()),
    getWebhookNotification: (id) => outcome(sdk.getWebhookNotification({ path: { id } })),
    listWebhookNotificationAttempts: (id) => outcome(sdk.listWebhookNotificationAttempts({ path: { id } })),
    retryWebhookNotification: (id) => outcome(sdk.retryWebhookNotification({ path: { id } })),
    listEvents: () => outcome(sdk.listEvents()),
    listEventVersions: () => outcome(sdk.listEventVersions()),
    updateSkuStock: (skuReference, body) => outcome(sdk.updateSkuStock({ path: { skuReference }, body })),
    updateSkuInspection: (skuReference, inspectionId, body) =>
      outcome(sdk.updateSkuInspection({ path: { skuReference, inspectionId }, body })),
    getError: (errorCode) => outcome(sdk.getError({ path: { errorCode } })),
    listSkus: () => outcome(sdk.listSkus({ query: { pageSize: 5 } })),
    searchFamilies: (body) => outcome(sdk.searchFamilies({ body })),
    deleteFamily: (id) => outcome(sdk.deleteFamily({ path: { id } })),
    listAssets: () => outcome(sdk.listAssets()),
    getTenantSelf: () => outcome(sdk.getTenantSelf()),
    updatePurchaseOrderLine: (id, lineId, body) => outcome(sdk.updatePurchaseOrderLine({ path: { id, lineId }, body })),
  };
}

/** The success status the contract gives each operation (documented or inferred), by operationId. */
const SUCCESS: Record<string, number> = Object.fromEntries(OPERATIONS.map((op) => [op.operationId, op.success.status]));

/** One client's run: the mock, a loopback receiver for its subscription, its tenant's admin token and fixture ids. */
interface Scenario {
  mock: RunningMock;
  endpoint: string;
  token: string;
  fixtures: FixtureManifest;
}

/** Calls every operation once, in an order where each call has what it needs, and returns each status by operationId. */
async function callEveryOperation(api: Api, s: Scenario): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const record = async (operationId: keyof Api, call: Promise<Outcome>): Promise<Outcome> => {
    const result = await call;
    statuses[operationId] = result.status;
    return result;
  };
  const { sku, deletableFamilyId, purchaseOrderLine } = s.fixtures;

  await record('createApiKey', api.createApiKey('generated-client'));
  await record('listWebhookSubscriptions', api.listWebhookSubscriptions());
  const subscription = await record(
    'createWebhookSubscription',
    api.createWebhookSubscription({ endpoint: s.endpoint, eventName: 'Warehouse.Shipment.Shipped', eventVersion: 1 }),
  );
  const notificationId = await emitEvent(s, 'Warehouse.Shipment.Shipped');
  await record('listWebhookNotifications', api.listWebhookNotifications());
  await record('getWebhookNotification', api.getWebhookNotification(notificationId));
  await record('listWebhookNotificationAttempts', api.listWebhookNotificationAttempts(notificationId));
  await record('retryWebhookNotification', api.retryWebhookNotification(notificationId));
  await record('deleteWebhookSubscription', api.deleteWebhookSubscription(String(subscription.body?.id)));
  await record('listEvents', api.listEvents());
  await record('listEventVersions', api.listEventVersions());
  await record(
    'updateSkuStock',
    api.updateSkuStock(sku.reference, {
      locationReference: sku.locationReference,
      lotId: sku.lotId,
      stock: 12,
      comment: 'generated client',
    }),
  );
  await record(
    'updateSkuInspection',
    api.updateSkuInspection(sku.reference, sku.inspectionIds[0] ?? '', { name: 'Visual check', isMandatory: true }),
  );
  await record('getError', api.getError('COMMON.ENTITY.NOT_FOUND'));
  await record('listSkus', api.listSkus());
  await record('searchFamilies', api.searchFamilies({ pageNumber: 1, pageSize: 5 }));
  await record('deleteFamily', api.deleteFamily(deletableFamilyId));
  await record('listAssets', api.listAssets());
  await record('getTenantSelf', api.getTenantSelf());
  await record(
    'updatePurchaseOrderLine',
    api.updatePurchaseOrderLine(purchaseOrderLine.purchaseOrderId, purchaseOrderLine.lineId, { quantity: 7 }),
  );
  await s.mock.control.idle();
  return statuses;
}

/** Calls the mock's admin API as the tenant of `token` (not through a generated client: `/__mock` is not in the contract). */
async function admin(
  mock: RunningMock,
  method: 'GET' | 'POST',
  path: string,
  token?: string,
  body?: unknown,
): Promise<any> {
  const res = await fetch(`${mock.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

/** Emits an event to the tenant's subscriptions and returns the id of the notification it stored. */
async function emitEvent(s: Scenario, eventName: string): Promise<string> {
  const emitted = await admin(s.mock, 'POST', '/__mock/events', s.token, { eventName });
  // Without a subscription (its creation failed) there is no notification: the later calls then show their 404s.
  return (emitted.notifications as string[])[0] ?? 'no-notification';
}

/** A fresh tenant with one admin token minted by the mock (POST /__mock/tokens) and its fixture ids. */
async function tenant(mock: RunningMock, endpoint: string, name: string): Promise<Scenario> {
  const org = `generated-${name}-${process.pid}`;
  const { roles, permissions } = adminClaims(org);
  const { token } = await admin(mock, 'POST', '/__mock/tokens', undefined, { org, roles, permissions });
  const fixtures = (await admin(mock, 'GET', '/__mock/fixtures', token)) as FixtureManifest;
  return { mock, endpoint, token, fixtures };
}

/** Credential headers (names only: the journal redacts values) of the tenant's requests to the contract's operations. */
async function credentialHeadersSent(s: Scenario): Promise<string[]> {
  const { requests } = await admin(s.mock, 'GET', '/__mock/requests', s.token);
  const names = new Set<string>();
  for (const r of requests as { path: string; headers: Record<string, string> }[]) {
    if (!r.path.startsWith('/v1/')) continue;
    for (const name of ['authorization', 'x-api-key']) if (name in r.headers) names.add(name);
  }
  return [...names].sort();
}

describe('clients generated from the contract, each with its default auth setup and one admin token', () => {
  let mock: RunningMock;
  let receiver: Server;
  let endpoint: string;
  let generated: GeneratedClients;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimit: null });
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    generated = await generateClients();
  });

  afterAll(async () => {
    await mock?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    generated?.remove();
  });

  it('relies on a rule the contract records as inferred, with its rationale, on the ApiKey scheme', () => {
    const contract = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
    const rule = contract.components.securitySchemes.ApiKey['x-with-bearer'];
    expect(rule['x-provenance']).toBe('inferred');
    expect(rule.rule).toMatch(/equal to the bearer token .* accepted/);
    expect(rule['x-rationale']).toContain('@hey-api/openapi-ts');
  });

  it('types openapi-fetch with exactly the committed spec/openapi.d.ts, which the test calls are checked against', () => {
    const committed = readFileSync(new URL('../spec/openapi.d.ts', import.meta.url), 'utf8');
    expect(generated.openapiFetchTypes).toBe(committed.slice(committed.indexOf('\n') + 1));
  });

  it('has the hey-api SDK declare both credential headers on every operation', () => {
    const sdk = readFileSync(join(generated.heyApiDir, 'sdk.gen.ts'), 'utf8');
    const declared = sdk.match(/security: \[.*\]/g) ?? [];
    expect(declared).toHaveLength(OPERATIONS.length);
    for (const line of declared)
      expect(line).toBe("security: [{ scheme: 'bearer', type: 'http' }, { name: 'X-Api-Key', type: 'apiKey' }]");
  });

  it('gets the success of every operation with openapi-fetch and its Authorization middleware', async () => {
    const s = await tenant(mock, endpoint, 'openapi-fetch');
    const { connect } = (await import(pathToFileURL(generated.openapiFetchModule).href)) as {
      connect: (baseUrl: string, token: string) => Client<paths>;
    };
    const statuses = await callEveryOperation(openapiFetchApi(connect(mock.url, s.token)), s);
    expect(statuses).toEqual(SUCCESS);
    expect(await credentialHeadersSent(s)).toEqual(['authorization']);
  });

  it('gets the success of every operation with @hey-api/openapi-ts and auth: () => token, which sends the token in both headers', async () => {
    const s = await tenant(mock, endpoint, 'hey-api');
    const { client } = (await import(pathToFileURL(join(generated.heyApiDir, 'client.gen.ts')).href)) as {
      client: { setConfig(config: object): void };
    };
    client.setConfig({ baseUrl: mock.url, auth: () => s.token });
    const sdk = (await import(pathToFileURL(join(generated.heyApiDir, 'index.ts')).href)) as HeyApiSdk;
    const statuses = await callEveryOperation(heyApiApi(sdk), s);
    expect(statuses).toEqual(SUCCESS);
    expect(await credentialHeadersSent(s)).toEqual(['authorization', 'x-api-key']);
  });

  it('still refuses a hey-api client whose X-Api-Key is a different, unknown key, with the plain 401', async () => {
    const s = await tenant(mock, endpoint, 'hey-api-other-key');
    const { client } = (await import(pathToFileURL(join(generated.heyApiDir, 'client.gen.ts')).href)) as {
      client: { setConfig(config: object): void };
    };
    client.setConfig({
      baseUrl: mock.url,
      auth: (auth: { type: string }) => (auth.type === 'apiKey' ? 'opsk_made-up-key-that-nobody-created' : s.token),
    });
    const sdk = (await import(pathToFileURL(join(generated.heyApiDir, 'index.ts')).href)) as HeyApiSdk;
    const reply = await outcome(sdk.listSkus());
    expect(reply.status).toBe(401);
    expect(reply.body).not.toHaveProperty('code');
  });
});
