import { compileErrors, validate } from '@readme/openapi-parser';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import type { OpenAPIObject, OperationObject } from 'openapi3-ts/oas31';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractValidator } from '../../spec/validate.js';
import { ADMIN_ROUTES } from '../admin/routes/index.js';
import { registeredAdminRoutes } from './admin-routes.js';
import { injectHarness, type InjectHarness, type Reply } from './harness.js';

// Both packages are CommonJS; under ESM their named exports sit on the default export.
const { Spectral, Document } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
const { Json } = spectralParsers as unknown as typeof import('@stoplight/spectral-parsers');

/** `METHOD /path` of every /__mock route the app registered, from Fastify's own route table (HEAD twins left out). */
async function registeredAdminPaths(h: InjectHarness): Promise<string[]> {
  return (await registeredAdminRoutes(h.mock.app))
    .filter((r) => r.method !== 'HEAD')
    .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`)
    .sort();
}

function operations(doc: OpenAPIObject): [string, OperationObject][] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, OperationObject>).map(
      ([method, op]) => [`${method.toUpperCase()} ${path}`, op] as [string, OperationObject],
    ),
  );
}

function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema));
}

/**
 * A schema as @fastify/swagger writes it: a TypeBox record (`patternProperties` of `^(.*)$`, every member name) becomes
 * `additionalProperties`, the same constraint; everything else stays as the route validates it.
 */
function asDocumented(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asDocumented);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    const every = (value as Record<string, unknown> | undefined)?.['^(.*)$'];
    if (key === 'patternProperties' && every !== undefined) out.additionalProperties = asDocumented(every);
    else out[key] = asDocumented(value);
  }
  return out;
}

/** The body schema of each admin route, as its route family hands it to Fastify to validate with (`METHOD /path`). */
function validatedBodies(): Map<string, unknown> {
  const bodies = new Map<string, unknown>();
  const route = (method: string) => (url: string, options: { schema?: { body?: unknown } }) => {
    if (options.schema?.body) bodies.set(`${method} ${url}`, options.schema.body);
  };
  // Only registered, never called: the handlers and hooks read none of the services.
  const admin = { get: route('GET'), post: route('POST'), delete: route('DELETE') };
  for (const register of ADMIN_ROUTES) register(admin as never, { services: {}, parts: {} } as never);
  return bodies;
}

/** A request to an operation of the document, `{param}` segments filled in. */
function requestOf(key: string): { method: string; path: string } {
  const [method = '', path = ''] = key.split(' ');
  return { method, path: path.replace(/\{\w+\}/g, 'sample-1') };
}

/** Whether an operation's `security` needs credentials (no `{}` alternative, none at all: no security). */
function needsCredentials(op: OperationObject): boolean {
  const security = op.security ?? [];
  return security.length > 0 && security.every((alternative) => Object.keys(alternative).length > 0);
}

describe('the admin API document at /__mock/openapi.json', () => {
  let h: InjectHarness;
  let doc: OpenAPIObject;
  let validator: ContractValidator;

  beforeAll(async () => {
    h = await injectHarness();
    const reply = await h.call('GET', '/__mock/openapi.json', { token: null });
    expect(reply.status, reply.text).toBe(200);
    doc = reply.body as OpenAPIObject;
    validator = new ContractValidator(doc);
  });

  afterAll(async () => {
    await h?.close();
  });

  /** Calls a route and asserts that the answer is the one the document declares for it. */
  async function expectDocumented(operationId: string, reply: Reply): Promise<void> {
    expect(
      validator.validateResponse(operationId, {
        status: reply.status,
        contentType: reply.headers['content-type'],
        body: reply.body,
      }),
      `${operationId} ${reply.status} ${reply.text.slice(0, 300)}`,
    ).toEqual({ ok: true });
  }

  it('is served as JSON without credentials', async () => {
    const reply = await h.call('GET', '/__mock/openapi.json', { token: null });
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is valid OpenAPI 3.1 (openapi-parser)', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it("has zero errors under Spectral's spectral:oas ruleset", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
    const results = await spectral.run(new Document(JSON.stringify(doc), Json, 'admin.json'));
    expect(
      results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`),
    ).toEqual([]);
  });

  it('documents every /__mock route the mock registers, and no other', async () => {
    const documented = operations(doc)
      .map(([key]) => key)
      .sort();
    expect(documented).toEqual(await registeredAdminPaths(h));
    expect(documented).toContain('GET /__mock/openapi.json');
  });

  it('gives every operation a unique operationId, a summary, a tag and the inferred mark with its rationale', () => {
    const ids = operations(doc).map(([, op]) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [key, op] of operations(doc)) {
      expect(op.summary, key).not.toBe(key);
      expect(op.tags?.length, key).toBe(1);
      expect(op['x-provenance'], key).toBe('inferred');
      expect(String(op['x-rationale']), key).toMatch(/does not know the admin API/);
    }
  });

  it('shows as request bodies the very TypeBox schemas the routes validate with', () => {
    const body = (key: string) => {
      const requestBody = operations(doc).find(([k]) => k === key)?.[1].requestBody as
        | { content?: Record<string, { schema: unknown }> }
        | undefined;
      return requestBody?.content?.['application/json']?.schema;
    };
    const bodies = validatedBodies();
    expect([...bodies.keys()].sort()).toEqual([
      'POST /__mock/client-checks',
      'POST /__mock/clock',
      'POST /__mock/events',
      'POST /__mock/reset',
      'POST /__mock/teams',
      'POST /__mock/tokens',
    ]);
    for (const [key, schema] of bodies) expect(body(key), key).toEqual(asDocumented(plain(schema)));
  });

  it('requires a request body exactly where its schema requires a member (no body reads as `{}`)', () => {
    const required = Object.fromEntries(
      operations(doc)
        .filter(([, op]) => op.requestBody)
        .map(([key, op]) => [key, (op.requestBody as { required?: boolean }).required]),
    );
    expect(required).toEqual({
      'POST /__mock/client-checks': false,
      'POST /__mock/clock': true,
      'POST /__mock/events': true,
      'POST /__mock/reset': false,
      'POST /__mock/teams': true,
      'POST /__mock/tokens': true,
    });
  });

  it('asks for credentials where the route really authenticates first: without them, a bad body gets the 401', async () => {
    for (const [key, op] of operations(doc)) {
      const { method, path } = requestOf(key);
      const reply = await h.call(method, path, { token: null, ...(op.requestBody ? { raw: '{not json' } : {}) });
      if (needsCredentials(op)) {
        expect(reply.status, `${key}: ${reply.text}`).toBe(401);
        await expectDocumented(op.operationId ?? key, reply);
      } else expect(reply.status, `${key}: ${reply.text}`).not.toBe(401);
    }
  });

  it('asks for credentials exactly on the tenant-scoped routes, and makes them optional on reset', () => {
    const security = Object.fromEntries(operations(doc).map(([key, op]) => [key, op.security]));
    expect(security['GET /__mock/health']).toEqual([]);
    expect(security['POST /__mock/tokens']).toEqual([]);
    expect(security['POST /__mock/clock']).toEqual([{ JWTApiKey: [] }, { ApiKey: [] }]);
    expect(security['DELETE /__mock/api-keys/{id}']).toEqual([{ JWTApiKey: [] }, { ApiKey: [] }]);
    expect(security['POST /__mock/reset']).toEqual([{}, { JWTApiKey: [] }, { ApiKey: [] }]);
  });

  it('declares the answers the routes really give, successes and problems', async () => {
    await expectDocumented('mockHealth', await h.call('GET', '/__mock/health', { token: null }));
    await expectDocumented('mockStats', await h.call('GET', '/__mock/stats', { token: null }));
    await expectDocumented(
      'mockMintToken',
      await h.call('POST', '/__mock/tokens', { token: null, body: { org: h.org } }),
    );
    await expectDocumented(
      'mockMintToken',
      await h.call('POST', '/__mock/tokens', { token: null, body: { org: 'bad org' } }),
    );
    await expectDocumented('mockReadClock', await h.call('GET', '/__mock/clock'));
    await expectDocumented('mockReadClock', await h.call('GET', '/__mock/clock', { token: null }));
    await expectDocumented('mockAdvanceClock', await h.call('POST', '/__mock/clock', { body: { advanceSeconds: 60 } }));
    await expectDocumented('mockFixtures', await h.call('GET', '/__mock/fixtures'));
    await expectDocumented('mockWebhookSecret', await h.call('GET', '/__mock/webhook-secret'));
    await expectDocumented(
      'mockEmitEvent',
      await h.call('POST', '/__mock/events', { body: { eventName: 'Items.Sku.Created' } }),
    );
    await expectDocumented(
      'mockEmitEvent',
      await h.call('POST', '/__mock/events', { body: { eventName: 'No.Such.Event' } }),
    );
    await expectDocumented('mockEmitEvent', await h.call('POST', '/__mock/events', { body: { eventVersion: 0 } }));
    await expectDocumented('mockAdvanceClock', await h.call('POST', '/__mock/clock', { body: { advanceSeconds: -1 } }));
    await expectDocumented(
      'mockMintToken',
      await h.call('POST', '/__mock/tokens', { token: null, raw: 'org=x', headers: { 'content-type': 'text/plain' } }),
    );
    await expectDocumented('mockCoverage', await h.call('GET', '/__mock/coverage?operations=noSuchOperation'));
    await expectDocumented('mockCoverage', await h.call('GET', `/__mock/coverage?operations=${'x'.repeat(4001)}`));
    await expectDocumented('mockStats', await h.call('GET', '/__mock/stats?gc=1&gc=2', { token: null }));
    // Journal entries of a success and of a coded problem.
    expect((await h.call('GET', '/v1/items/skus?pageSize=1')).status).toBe(200);
    expect((await h.call('GET', '/v1/items/skus?filterBy=nope')).status).toBe(400);
    const journal = await h.call('GET', '/__mock/requests');
    expect(journal.body.requests.length).toBeGreaterThanOrEqual(2);
    await expectDocumented('mockRequests', journal);
    await expectDocumented('mockClearRequests', await h.call('DELETE', '/__mock/requests'));
    await expectDocumented('mockRevokeApiKey', await h.call('DELETE', '/__mock/api-keys/no-such-key'));
    await expectDocumented('mockCoverage', await h.call('GET', '/__mock/coverage'));
    await expectDocumented('mockAdminDocument', await h.call('GET', '/__mock/openapi.json', { token: null }));
    await expectDocumented('mockReset', await h.call('POST', '/__mock/reset', { body: {} }));
    await expectDocumented('mockReset', await h.call('POST', '/__mock/reset', { token: null, body: {} }));
    await expectDocumented('mockReset', await h.call('POST', '/__mock/reset', { token: null, raw: '[]' }));
    await expectDocumented('mockReset', await h.call('POST', '/__mock/reset', { token: null, body: { all: true } }));
  });

  it('names the origin it was requested from in servers', async () => {
    const reply = await h.call('GET', '/__mock/openapi.json', { token: null, headers: { host: 'mock.internal:8123' } });
    expect(reply.body.servers[0].url).toBe('http://mock.internal:8123');
  });
});

describe('the admin API document of a mock started with --admin-key', () => {
  const KEY = 'k3y-0f-the-documented-mock-0123456789';
  let keyed: InjectHarness;
  let open: InjectHarness;
  let doc: OpenAPIObject;

  beforeAll(async () => {
    keyed = await injectHarness({ adminKey: KEY });
    const reply = await keyed.call('GET', '/__mock/openapi.json', { token: null, headers: { 'x-admin-key': KEY } });
    expect(reply.status, reply.text).toBe(200);
    doc = reply.body as OpenAPIObject;
    // Built after the keyed one in the same process: the route schemas both use must stay without the key.
    open = await injectHarness();
  });

  afterAll(async () => {
    await keyed?.close();
    await open?.close();
  });

  it('is valid OpenAPI 3.1 (openapi-parser)', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('asks for the key on every route but health, with the credentials each route needs besides', () => {
    const security = Object.fromEntries(operations(doc).map(([key, op]) => [key, op.security]));
    expect(security['GET /__mock/health']).toEqual([]);
    // Operator routes want the admin key; team routes either key; tenant routes either key beside the tenant's
    // credentials, or the tenant's own (App.Admin) bearer token alone.
    expect(security['GET /__mock/stats']).toEqual([{ AdminKey: [] }]);
    expect(security['POST /__mock/teams']).toEqual([{ AdminKey: [] }]);
    expect(security['GET /__mock/openapi.json']).toEqual([{ AdminKey: [] }, { TeamKey: [] }]);
    expect(security['POST /__mock/tokens']).toEqual([{ AdminKey: [] }, { TeamKey: [] }]);
    expect(security['POST /__mock/clock']).toEqual([
      { AdminKey: [], JWTApiKey: [] },
      { AdminKey: [], ApiKey: [] },
      { TeamKey: [], JWTApiKey: [] },
      { TeamKey: [], ApiKey: [] },
      { JWTApiKey: [] },
    ]);
    expect(security['POST /__mock/reset']).toEqual([
      { AdminKey: [] },
      { AdminKey: [], JWTApiKey: [] },
      { AdminKey: [], ApiKey: [] },
      { TeamKey: [] },
      { TeamKey: [], JWTApiKey: [] },
      { TeamKey: [], ApiKey: [] },
      { JWTApiKey: [] },
    ]);
    expect(doc.components?.securitySchemes?.TeamKey).toMatchObject({ in: 'header', name: 'X-Team-Key' });
    expect(doc.components?.securitySchemes?.AdminKey).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Admin-Key',
    });
  });

  it("declares the key's refusal, the 401 every guarded route really gives without it", async () => {
    const validator = new ContractValidator(doc);
    for (const [key, op] of operations(doc)) {
      const { method, path } = requestOf(key);
      const reply = await keyed.call(method, path, { token: null });
      if (path === '/__mock/health') expect(reply.status).toBe(200);
      else expect(reply.status, `${key}: ${reply.text}`).toBe(401);
      const answer = { status: reply.status, contentType: reply.headers['content-type'], body: reply.body };
      expect(validator.validateResponse(op.operationId ?? key, answer), key).toEqual({ ok: true });
    }
  });

  it('leaves the document of a mock without a key as it was', async () => {
    const reply = await open.call('GET', '/__mock/openapi.json', { token: null });
    const unkeyed = reply.body as OpenAPIObject;
    expect(unkeyed.components?.securitySchemes).not.toHaveProperty('AdminKey');
    expect(JSON.stringify(unkeyed.paths)).not.toContain('AdminKey');
  });
});
