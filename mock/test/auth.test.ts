import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import { RFC9110_401_TYPE } from '../../spec/schemas/problem.js';
import { adminClaims } from '../auth/presets.js';
import { ADMIN } from '../auth/principal.js';
import { mintToken } from '../auth/tokens.js';
import { expectProblem, freshOrg, injectHarness, type InjectHarness, type Reply } from './harness.js';

/** The path of an operation with every path parameter filled with a dummy value. */
function pathOf(op: OperationDef): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => `dummy-${name}`);
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Asserts the plain 401 of the reference: no `code`, the RFC 9110 `type`, `instance` = `<METHOD> <path>`. */
function expectPlain401(reply: Reply, instance: string): void {
  expectProblem(reply, 401, null, instance);
  expect(reply.body.type).toBe(RFC9110_401_TYPE);
  expect(reply.body).not.toHaveProperty('code');
  expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
}

describe('authentication', () => {
  let h: InjectHarness;
  let secret: string;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    h = await injectHarness();
    secret = h.mock.control.options.jwtSecret;
  });

  afterAll(async () => {
    await h?.close();
  });

  describe('rejects bad credentials with the plain 401', () => {
    const cases: { name: string; headers: () => Promise<Record<string, string>> }[] = [
      { name: 'a missing token', headers: async () => ({}) },
      { name: 'a malformed bearer token (Bearer abc)', headers: async () => ({ authorization: 'Bearer abc' }) },
      { name: 'a Basic authorization', headers: async () => ({ authorization: 'Basic x' }) },
      { name: 'a bare token without the Bearer scheme', headers: async () => ({ authorization: h.admin }) },
      {
        name: 'a token signed with another secret',
        headers: async () => ({
          authorization: `Bearer ${await mintToken('another-secret-entirely', adminClaims(h.org))}`,
        }),
      },
      {
        name: 'an expired token',
        headers: async () => ({ authorization: `Bearer ${await h.token(adminClaims(h.org), -10)}` }),
      },
      {
        name: 'a token expired long ago (minted in the past)',
        headers: async () => ({
          authorization: `Bearer ${await mintToken(secret, adminClaims(h.org), 60, nowSeconds() - 7200)}`,
        }),
      },
      {
        name: 'an unsigned token (alg: none)',
        headers: async () => ({
          authorization: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...adminClaims(h.org), exp: nowSeconds() + 3600, iat: nowSeconds() })}.`,
        }),
      },
      {
        name: 'a token whose nbf lies in the future',
        headers: async () => {
          const token = await new SignJWT({ org: h.org, permissions: adminClaims(h.org).permissions, roles: [] })
            .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
            .setIssuedAt()
            .setNotBefore(nowSeconds() + 3600)
            .setExpirationTime(nowSeconds() + 7200)
            .sign(new TextEncoder().encode(secret));
          return { authorization: `Bearer ${token}` };
        },
      },
      {
        name: 'a token without an org claim',
        headers: async () => {
          const token = await new SignJWT({ permissions: adminClaims(h.org).permissions })
            .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
            .setIssuedAt()
            .setExpirationTime(nowSeconds() + 3600)
            .sign(new TextEncoder().encode(secret));
          return { authorization: `Bearer ${token}` };
        },
      },
      {
        name: 'a token without an exp claim',
        headers: async () => {
          const token = await new SignJWT({ org: h.org, permissions: adminClaims(h.org).permissions })
            .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
            .setIssuedAt()
            .sign(new TextEncoder().encode(secret));
          return { authorization: `Bearer ${token}` };
        },
      },
      {
        name: 'a token with an invalid org claim',
        headers: async () => ({ authorization: `Bearer ${await h.token({ org: 'not a valid org!' })}` }),
      },
    ];

    it.each(cases)('answers $name with the plain 401 without code', async ({ headers }) => {
      const reply = await h.call('GET', '/v1/items/skus', { token: null, headers: await headers(), op: 'listSkus' });
      expectPlain401(reply, 'GET /v1/items/skus');
    });
  });

  it('answers a forged token on a write with the plain 401', async () => {
    const forged = await mintToken('another-secret-entirely', adminClaims(h.org));
    const reply = await h.call('POST', '/v1/access/apiKeys', {
      token: forged,
      body: { name: 'forged' },
      op: 'createApiKey',
    });
    expectPlain401(reply, 'POST /v1/access/apiKeys');
  });

  it('answers an anonymous request with a broken body with the 401, not the 400', async () => {
    const reply = await h.call('PUT', '/v1/items/skus/X/stock', {
      token: null,
      raw: '{not json',
      op: 'updateSkuStock',
    });
    expectPlain401(reply, 'PUT /v1/items/skus/X/stock');
  });

  it.each(OPERATIONS.map((op) => ({ operationId: op.operationId, op })))(
    'answers $operationId without credentials with the plain 401',
    async ({ op }) => {
      const path = pathOf(op);
      const reply = await h.call(op.method.toUpperCase(), path, { token: null, op: op.operationId });
      expectPlain401(reply, `${op.method.toUpperCase()} ${path}`);
    },
  );

  describe('permissions', () => {
    let none: string;

    beforeAll(async () => {
      none = await h.token({ org: h.org, permissions: [], roles: [] });
    });

    const guarded = OPERATIONS.filter((op) => op.permission.name !== null);

    it('guards every operation of the contract that names a permission', () => {
      expect(guarded.length).toBeGreaterThan(0);
      expect(guarded.map((op) => op.operationId)).toContain('updateSkuStock');
    });

    it.each(guarded.map((op) => ({ operationId: op.operationId, permission: op.permission.name, op })))(
      'answers $operationId without $permission with 403 MISSING_PERMISSIONS naming it',
      async ({ op, permission }) => {
        const path = pathOf(op);
        const reply = await h.call(op.method.toUpperCase(), path, { token: none, op: op.operationId });
        expectProblem(reply, 403, 'COMMON.AUTH.MISSING_PERMISSIONS', `${op.method.toUpperCase()} ${path}`);
        expect(reply.body.detail).toContain(permission);
        expect(reply.body.parameters).toEqual({ permission });
      },
    );

    it.each(
      guarded.filter((op) => !op.permission.name?.endsWith('.Read')).map((op) => ({ operationId: op.operationId, op })),
    )('refuses $operationId to the read-only token', async ({ op }) => {
      const reply = await h.call(op.method.toUpperCase(), pathOf(op), { token: h.limited, op: op.operationId });
      expectProblem(reply, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
      expect(reply.body.parameters.permission).toBe(op.permission.name);
    });

    it('lets the read-only token read the SKUs', async () => {
      const reply = await h.call('GET', '/v1/items/skus?pageSize=1', { token: h.limited, op: 'listSkus' });
      expect(reply.status).toBe(200);
    });

    it.each(OPERATIONS.filter((op) => op.permission.name === null).map((op) => ({ operationId: op.operationId })))(
      'lets a token without permissions call $operationId, which names none',
      async ({ operationId }) => {
        const path =
          operationId === 'getError'
            ? '/v1/errors/COMMON.ENTITY.NOT_FOUND'
            : OPERATIONS.find((o) => o.operationId === operationId)!.path;
        const reply = await h.call('GET', path, { token: none, op: operationId });
        expect(reply.status).toBe(200);
      },
    );

    describe(`the role ${ADMIN}`, () => {
      let roleOnly: string;

      beforeAll(async () => {
        roleOnly = await h.token({ org: h.org, roles: [ADMIN], permissions: [] });
      });

      it('grants the operations that require App.Admin', async () => {
        const list = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
          token: roleOnly,
          op: 'listWebhookSubscriptions',
        });
        expect(list.status).toBe(200);
        const created = await h.call('POST', '/v1/access/apiKeys', {
          token: roleOnly,
          body: { name: 'role-only' },
          op: 'createApiKey',
        });
        expect(created.status).toBe(201);
        const history = await h.call('GET', '/v1/notifications/webhook', {
          token: roleOnly,
          op: 'listWebhookNotifications',
        });
        expect(history.status).toBe(200);
      });

      it('grants nothing else', async () => {
        const skus = await h.call('GET', '/v1/items/skus', { token: roleOnly, op: 'listSkus' });
        expectProblem(skus, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
        expect(skus.body.parameters).toEqual({ permission: 'Warehouse.Skus.Read' });
        const stock = await h.call('PUT', '/v1/items/skus/X/stock', {
          token: roleOnly,
          body: { locationReference: 'L', stock: 1 },
          op: 'updateSkuStock',
        });
        expectProblem(stock, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
        expect(stock.body.parameters).toEqual({ permission: 'Warehouse.Counts.Write' });
      });
    });
  });

  describe('API keys', () => {
    let key: string;

    beforeAll(async () => {
      const created = await h.call('POST', '/v1/access/apiKeys', { body: { name: 'ci' }, op: 'createApiKey' });
      expect(created.status).toBe(201);
      key = created.body.key;
    });

    it('creates a key with id, key, name, orgCode and isActive', async () => {
      const created = await h.call('POST', '/v1/access/apiKeys', { body: { name: 'second' }, op: 'createApiKey' });
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual(['id', 'isActive', 'key', 'name', 'orgCode']);
      expect(created.body).toMatchObject({ name: 'second', orgCode: h.org, isActive: true });
      expect(created.body.key).not.toBe(key);
      expect(created.headers.location).toBe(`/v1/access/apiKeys/${created.body.id}`);
    });

    it('accepts the key alone in X-Api-Key on a list', async () => {
      const reply = await h.call('GET', '/v1/items/skus?pageSize=2', { token: null, apiKey: key, op: 'listSkus' });
      expect(reply.status).toBe(200);
      expect(reply.body.results).toHaveLength(2);
    });

    it('acts for the tenant of its creator', async () => {
      const reply = await h.call('GET', '/v1/admin/tenants/self', { token: null, apiKey: key, op: 'getTenantSelf' });
      expect(reply.status).toBe(200);
      expect(reply.body.orgCode).toBe(h.org);
    });

    it('accepts the key together with a token of the same tenant', async () => {
      const reply = await h.call('GET', '/v1/items/skus?pageSize=1', { token: h.limited, apiKey: key, op: 'listSkus' });
      expect(reply.status).toBe(200);
    });

    it('refuses the key together with a token of another tenant with the plain 401', async () => {
      const other = await h.token(adminClaims(freshOrg('other')));
      const reply = await h.call('GET', '/v1/items/skus', { token: other, apiKey: key, op: 'listSkus' });
      expectPlain401(reply, 'GET /v1/items/skus');
    });

    it('refuses a made-up key with the plain 401', async () => {
      const reply = await h.call('GET', '/v1/items/skus', {
        token: null,
        apiKey: 'opsk_made-up-key-that-nobody-created',
        op: 'listSkus',
      });
      expectPlain401(reply, 'GET /v1/items/skus');
    });

    it('refuses a valid key next to a forged token', async () => {
      const forged = await mintToken('another-secret-entirely', adminClaims(h.org));
      const reply = await h.call('GET', '/v1/items/skus', { token: forged, apiKey: key, op: 'listSkus' });
      expectPlain401(reply, 'GET /v1/items/skus');
    });

    describe('beside a bearer token (x-with-bearer, inferred)', () => {
      it('accepts the bearer token repeated in X-Api-Key, as clients generated by @hey-api/openapi-ts send it', async () => {
        const list = await h.call('GET', '/v1/items/skus?pageSize=1', { apiKey: h.admin, op: 'listSkus' });
        expect(list.status).toBe(200);
        const created = await h.call('POST', '/v1/access/apiKeys', {
          apiKey: h.admin,
          body: { name: 'repeated-token' },
          op: 'createApiKey',
        });
        expect(created.status).toBe(201);
      });

      it('gives the repeated token the permissions of the token, no more', async () => {
        const reply = await h.call('POST', '/v1/access/apiKeys', {
          token: h.limited,
          apiKey: h.limited,
          body: { name: 'limited' },
          op: 'createApiKey',
        });
        expectProblem(reply, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
      });

      it('refuses a valid token with a different, made-up key with the plain 401', async () => {
        const reply = await h.call('GET', '/v1/items/skus', {
          apiKey: 'opsk_made-up-key-that-nobody-created',
          op: 'listSkus',
        });
        expectPlain401(reply, 'GET /v1/items/skus');
      });

      it('refuses a valid token with another valid token in X-Api-Key with the plain 401', async () => {
        const reply = await h.call('GET', '/v1/items/skus', { apiKey: h.limited, op: 'listSkus' });
        expectPlain401(reply, 'GET /v1/items/skus');
      });

      it('refuses a forged token repeated in X-Api-Key with the plain 401', async () => {
        const forged = await mintToken('another-secret-entirely', adminClaims(h.org));
        const reply = await h.call('GET', '/v1/items/skus', { token: forged, apiKey: forged, op: 'listSkus' });
        expectPlain401(reply, 'GET /v1/items/skus');
      });

      it('refuses a token sent in X-Api-Key alone with the plain 401: a token is not a key', async () => {
        const reply = await h.call('GET', '/v1/items/skus', { token: null, apiKey: h.admin, op: 'listSkus' });
        expectPlain401(reply, 'GET /v1/items/skus');
      });
    });

    it('carries the permissions of its creator, no more', async () => {
      const roleOnly = await h.token({ org: h.org, roles: [ADMIN], permissions: [] });
      const created = await h.call('POST', '/v1/access/apiKeys', {
        token: roleOnly,
        body: { name: 'admin-role-key' },
        op: 'createApiKey',
      });
      expect(created.status).toBe(201);
      const subs = await h.call('GET', '/v1/notifications/webhook/subscriptions', {
        token: null,
        apiKey: created.body.key,
        op: 'listWebhookSubscriptions',
      });
      expect(subs.status).toBe(200);
      const skus = await h.call('GET', '/v1/items/skus', { token: null, apiKey: created.body.key, op: 'listSkus' });
      expectProblem(skus, 403, 'COMMON.AUTH.MISSING_PERMISSIONS');
    });
  });
});
