import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedContract } from '../../spec/shared-contract.js';
import { OPERATIONS, operation } from '../../spec/operations/index.js';
import type { FixtureManifest } from '../../fixtures/seed/model.js';
import { adminClaims } from '../auth/presets.js';
import { mintToken } from '../auth/tokens.js';
import { successSerializerSchema } from '../http/serializers.js';
import { buildMock, type Mock } from '../server.js';
import { freshOrg } from './harness.js';
import { throughInject, type Send } from './transports.js';

/**
 * The contract's response objects are open ("Other SKU fields: not shown"), the mock's answers are not: it sends
 * exactly the fields the contract names. These tests read every success answer of the mock and compare the key set
 * of each object on the wire with the properties of its schema, and look at what the handlers hand the serializer.
 */

const { document, validator } = sharedContract();
const schemas = (document.components?.schemas ?? {}) as Record<string, any>;

/** A schema with its `$ref`s followed. */
function deref(schema: any): any {
  let s = schema;
  for (let i = 0; i < 8 && s?.$ref; i++) s = schemas[String(s.$ref).replace('#/components/schemas/', '')];
  return s;
}

/** Objects on the wire whose key set differs from their schema's properties: `path: sent [..] named [..]`. */
function keyMismatches(schema: any, value: unknown, path = '', out: string[] = []): string[] {
  const s = deref(schema);
  if (!s || value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    if (s.items) for (const [i, v] of value.entries()) keyMismatches(s.items, v, `${path}[${i}]`, out);
    return out;
  }
  // A nullable object (`anyOf [object, null]`): its object branch.
  const object = s.properties ? s : (s.anyOf ?? []).map(deref).find((b: any) => b?.properties);
  if (!object) return out; // a free-form record (`data`, `parameters`): its keys are data
  const sent = Object.keys(value).sort();
  const named = Object.keys(object.properties).sort();
  if (JSON.stringify(sent) !== JSON.stringify(named))
    out.push(`${path || '(body)'}: sent [${sent.join(', ')}] named [${named.join(', ')}]`);
  for (const name of named)
    keyMismatches(object.properties[name], (value as Record<string, unknown>)[name], `${path}.${name}`, out);
  return out;
}

/** The document with every opening closed again, as the contract was before response objects were opened. */
function closedDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closedDocument);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === 'additionalProperties' && v === true ? false : closedDocument(v)]),
  );
}

interface Answer {
  operationId: string;
  status: number;
  contentType: string | undefined;
  text: string;
  body: unknown;
  /** What the handler gave the serializer, as JSON. */
  handed: unknown;
}

describe('the mock sends exactly the fields the contract names', () => {
  let mock: Mock;
  let send: Send;
  let token: string;
  let receiver: Server;
  const handed = new Map<string, unknown>();
  const answers: Answer[] = [];

  async function call(operationId: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-test-call': String(answers.length) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await send({ method, path, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = res.text;
    const answer: Answer = {
      operationId,
      status: res.status,
      contentType: res.headers['content-type'],
      text,
      body: text ? JSON.parse(text) : undefined,
      handed: handed.get(headers['x-test-call'] as string),
    };
    answers.push(answer);
    return answer;
  }

  beforeAll(async () => {
    mock = await buildMock({ port: 0, rateLimit: null });
    // What each handler hands the serializer, before serialization (JSON round trip: what JSON.stringify would send).
    mock.app.addHook('preSerialization', async (req, _reply, payload) => {
      const id = req.headers['x-test-call'];
      if (typeof id === 'string') handed.set(id, JSON.parse(JSON.stringify(payload)));
      return payload;
    });
    send = throughInject(mock.app);
    token = await mintToken(mock.control.options.jwtSecret, adminClaims(freshOrg('exact')));
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    // Every operation of the contract, once each, on its success path.
    const m = (await call('fixtures', 'GET', '/__mock/fixtures')).body as FixtureManifest;
    answers.length = 0;
    const sku = encodeURIComponent(m.sku.reference);
    await call('listSkus', 'GET', '/v1/items/skus?pageSize=1000');
    await call('updateSkuStock', 'PUT', `/v1/items/skus/${sku}/stock`, {
      locationReference: m.sku.locationReference,
      lotId: m.sku.lotId,
      stock: 3,
    });
    await call(
      'updateSkuInspection',
      'PUT',
      `/v1/items/skus/${sku}/inspections/${encodeURIComponent(m.sku.inspectionIds[0] as string)}`,
      { name: 'Visual check', isMandatory: true },
    );
    await call('searchFamilies', 'POST', '/v1/items/families/search', { pageSize: 1000 });
    await call('deleteFamily', 'DELETE', `/v1/items/families/${encodeURIComponent(m.deletableFamilyId)}`);
    await call('listAssets', 'GET', '/v1/maintenance/assets?pageSize=1000');
    await call('getTenantSelf', 'GET', '/v1/admin/tenants/self');
    const line = m.purchaseOrderLine;
    await call(
      'updatePurchaseOrderLine',
      'PUT',
      `/v1/planning/purchaseOrders/${line.purchaseOrderId}/lines/${line.lineId}`,
      { comment: 'checked' },
    );
    await call('getError', 'GET', '/v1/errors/COMMON.ENTITY.NOT_FOUND');
    await call('createApiKey', 'POST', '/v1/access/apiKeys', { name: 'exact fields' });
    const sub = await call('createWebhookSubscription', 'POST', '/v1/notifications/webhook/subscriptions', {
      endpoint,
      eventName: 'Warehouse.Stock.Updated',
      eventVersion: 2,
    });
    await call('listEvents', 'GET', '/v1/notifications/events?pageSize=1000');
    await call('listEventVersions', 'GET', '/v1/notifications/events/versions');
    await call('updateSkuStock', 'PUT', `/v1/items/skus/${sku}/stock`, {
      locationReference: m.sku.locationReference,
      stock: 4,
    });
    await mock.control.idle();
    const list = await call('listWebhookNotifications', 'GET', '/v1/notifications/webhook');
    const id = (list.body as { results: { id: string }[] }).results[0]?.id ?? 'none';
    await call('getWebhookNotification', 'GET', `/v1/notifications/webhook/${id}`);
    await call('listWebhookNotificationAttempts', 'GET', `/v1/notifications/webhook/${id}/attempts`);
    await call('retryWebhookNotification', 'POST', `/v1/notifications/webhook/${id}/retry`);
    await mock.control.idle();
    await call('listWebhookSubscriptions', 'GET', '/v1/notifications/webhook/subscriptions');
    await call(
      'deleteWebhookSubscription',
      'DELETE',
      `/v1/notifications/webhook/subscriptions/${(sub.body as { id: string }).id}`,
    );
  }, 60_000);

  afterAll(async () => {
    await mock?.close();
    if (receiver) await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('answers every operation of the contract on its success path', () => {
    expect(new Set(answers.map((a) => a.operationId))).toEqual(new Set(OPERATIONS.map((op) => op.operationId)));
    for (const a of answers)
      expect(a.status, `${a.operationId} ${a.text.slice(0, 200)}`).toBe(operation(a.operationId).success.status);
    expect(answers.find((a) => a.operationId === 'listWebhookNotifications')?.body).toMatchObject({ totalCount: 1 });
  });

  it("sends, for every object of every answer, the key set of its schema's properties", () => {
    const mismatches = answers.flatMap((a) =>
      keyMismatches(schemas[operation(a.operationId).success.schema ?? ''], a.body).map((m) => `${a.operationId} ${m}`),
    );
    expect(mismatches).toEqual([]);
  });

  it('sends answers the contract accepts, with no field the contract does not name', () => {
    for (const a of answers) {
      expect(
        validator.validateResponse(a.operationId, { status: a.status, contentType: a.contentType, body: a.body }),
        a.operationId,
      ).toEqual({ ok: true });
      expect(validator.unknownFields(a.operationId, { status: a.status, body: a.body }), a.operationId).toEqual([]);
    }
  });

  it('gets from its handlers exactly what it sends: no internal field of a record reaches the serializer', () => {
    for (const a of answers.filter((x) => x.body !== undefined)) expect(a.body, a.operationId).toEqual(a.handed);
  });
});

describe('the precompiled success serializers', () => {
  it('are the ones the closed contract gave: opening response objects changes no byte the mock sends', () => {
    const closed = closedDocument(document) as typeof document;
    for (const op of OPERATIONS)
      expect(successSerializerSchema(document, op), op.operationId).toEqual(successSerializerSchema(closed, op));
  });

  it('drop a member a handler would add that the contract does not name, at any depth', async () => {
    const op = operation('listSkus');
    const app = Fastify();
    const item = {
      id: 's1',
      reference: 'R1',
      name: 'Bolt',
      description: null,
      familyId: null,
      status: 'Active',
      baseUnitOfMeasureId: 'u',
      totalStock: 1,
      isStockControlled: true,
      createdAt: '2025-01-01T00:00:00.000Z',
      lastModifiedAt: '2025-01-01T00:00:00.000Z',
    };
    app.get('/skus', { schema: { response: successSerializerSchema(document, op) } }, async () => ({
      results: [{ ...item, internalCost: 9 }],
      pageNumber: 1,
      pageSize: 25,
      totalPages: 1,
      totalCount: 1,
      cursor: 'x',
    }));
    try {
      const res = await app.inject({ method: 'GET', url: '/skus' });
      expect(res.json()).toEqual({ results: [item], pageNumber: 1, pageSize: 25, totalPages: 1, totalCount: 1 });
    } finally {
      await app.close();
    }
  });
});
