/**
 * Authentication hardening: the JWT verifier is pinned to HS256 and the configured secret, honours exp and nbf with
 * a small leeway only, the admin API can be switched off entirely, API keys can be revoked, credentials never reach
 * the request journal or the request log, and oversized bodies get the plain 413.
 */
import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RFC9110_401_TYPE } from '../../../spec/schemas/problem.js';
import { startListening } from '../../../test/support/process.js';
import { opsapiNodeArgs } from '../../../test/support/cli-command.js';
import { adminClaims } from '../../auth/presets.js';
import { TokenVerifier, mintToken } from '../../auth/tokens.js';
import { expectProblem, freshOrg, startHarness, type Harness, type Reply } from '../harness.js';
import { hmacToken } from './forged-tokens.js';
import { bearer, checkReply, Wire } from './support.js';

/** The clock skew the mock tolerates on `exp` and `nbf`, in seconds (mock/auth/tokens.ts). */
const LEEWAY_SECONDS = 5;

const now = () => Math.floor(Date.now() / 1000);

function expectPlain401(reply: Reply): void {
  expectProblem(reply, 401, null);
  expect(reply.body.type).toBe(RFC9110_401_TYPE);
}

describe('the JWT verifier', () => {
  const secret = 'a-custom-secret-for-the-hardening-tests';
  let h: Harness;
  let org: string;
  const claims = () => ({ org, permissions: adminClaims(org).permissions, roles: adminClaims(org).roles });
  const list = (token: string) => h.call('GET', '/v1/items/skus?pageSize=1', { token, op: 'listSkus' });

  beforeAll(async () => {
    h = await startHarness({ jwtSecret: secret });
    org = h.org;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('accepts HS256 with the configured secret', async () => {
    expect((await list(await mintToken(secret, adminClaims(org)))).status).toBe(200);
    expect(
      (
        await list(
          await new SignJWT(claims())
            .setProtectedHeader({ alg: 'HS256' })
            .setExpirationTime('1h')
            .sign(new TextEncoder().encode(secret)),
        )
      ).status,
    ).toBe(200);
  });

  it('refuses the default secret once another one is configured', async () => {
    expectPlain401(await list(await mintToken('opsapi-local-mock-secret-change-me', adminClaims(org))));
  });

  it.each(['HS384', 'HS512'] as const)('refuses %s, even signed with the configured secret', async (alg) => {
    expectPlain401(
      await list(
        await new SignJWT(claims())
          .setProtectedHeader({ alg })
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(secret)),
      ),
    );
  });

  it('refuses RS256, with a key pair and as an HMAC under an RS256 header', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    expectPlain401(
      await list(
        await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).setExpirationTime('1h').sign(privateKey),
      ),
    );
    expectPlain401(await list(hmacToken(secret, { alg: 'RS256', typ: 'JWT' }, { ...claims(), exp: now() + 3600 })));
  });

  it('refuses alg none, with and without a signature', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const payload = b64({ ...claims(), exp: now() + 3600 });
    expectPlain401(await list(`${b64({ alg: 'none' })}.${payload}.`));
    const valid = (await mintToken(secret, adminClaims(org))).split('.');
    expectPlain401(await list(`${b64({ alg: 'none' })}.${valid[1]}.${valid[2]}`));
  });

  it(`accepts a token expired 2 s ago (leeway ${LEEWAY_SECONDS} s) and refuses one expired 60 s ago`, async () => {
    expect((await list(await mintToken(secret, adminClaims(org), -2))).status).toBe(200);
    expectPlain401(await list(await mintToken(secret, adminClaims(org), -60)));
    expectPlain401(await list(await mintToken(secret, adminClaims(org), 3600, now() - 7200)));
  });

  it('refuses a token whose nbf is 60 s ahead and accepts one 2 s ahead', async () => {
    expectPlain401(
      await list(hmacToken(secret, { alg: 'HS256' }, { ...claims(), nbf: now() + 60, exp: now() + 3600 })),
    );
    expect(
      (await list(hmacToken(secret, { alg: 'HS256' }, { ...claims(), nbf: now() + 2, exp: now() + 3600 }))).status,
    ).toBe(200);
  });

  it('refuses a token without exp and one with a malformed org', async () => {
    expectPlain401(await list(hmacToken(secret, { alg: 'HS256' }, claims())));
    expectPlain401(await list(hmacToken(secret, { alg: 'HS256' }, { ...claims(), org: 7, exp: now() + 3600 })));
  });

  it('keeps honouring exp for a token it has already verified (cached)', async () => {
    const verifier = new TokenVerifier(secret);
    const t0 = now();
    const token = await mintToken(secret, adminClaims(org), 10, t0);
    expect((await verifier.verify(token, t0 * 1000)).ok).toBe(true);
    expect((await verifier.verify(token, (t0 + 10 + LEEWAY_SECONDS - 1) * 1000)).ok).toBe(true);
    expect(await verifier.verify(token, (t0 + 10 + LEEWAY_SECONDS + 1) * 1000)).toMatchObject({ ok: false });
    const early = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(t0 + 60)
      .setExpirationTime(t0 + 3600)
      .sign(new TextEncoder().encode(secret));
    expect(await verifier.verify(early, t0 * 1000)).toMatchObject({ ok: false });
    expect((await verifier.verify(early, (t0 + 60) * 1000)).ok).toBe(true);
    expect(await verifier.verify(early, t0 * 1000)).toMatchObject({ ok: false });
  });
});

describe('the admin API switched off (admin: false)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ admin: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  const routes: [string, string][] = [
    ['GET', '/__mock/health'],
    ['POST', '/__mock/tokens'],
    ['POST', '/__mock/reset'],
    ['GET', '/__mock/clock'],
    ['POST', '/__mock/clock'],
    ['GET', '/__mock/fixtures'],
    ['GET', '/__mock/requests'],
    ['DELETE', '/__mock/requests'],
    ['GET', '/__mock/webhook-secret'],
    ['POST', '/__mock/events'],
    ['DELETE', '/__mock/api-keys/key_x'],
    ['GET', '/__mock'],
    ['GET', '/__mock/'],
    ['PUT', '/__mock/anything/else'],
  ];

  it.each(routes)('answers %s %s with a 404 problem, authenticated or not', async (method, path) => {
    for (const token of [h.admin, null]) {
      const body =
        method === 'GET'
          ? undefined
          : { org: 'x', all: true, advanceSeconds: 60, eventName: 'Warehouse.Stock.Updated' };
      const reply = await h.call(method, path, { token, ...(body ? { body } : {}) });
      expectProblem(reply, 404, null);
    }
  });

  it('still serves the contract', async () => {
    expect((await h.call('GET', '/v1/items/skus?pageSize=1', { op: 'listSkus' })).status).toBe(200);
  });
});

describe('API keys', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('can be revoked through the admin API (the contract has no revoke operation); a revoked key gets the plain 401', async () => {
    const created = await h.call('POST', '/v1/access/apiKeys', { body: { name: 'to revoke' }, op: 'createApiKey' });
    expect(created.status).toBe(201);
    const { id, key } = created.body as { id: string; key: string };
    const kept = (await h.call('POST', '/v1/access/apiKeys', { body: { name: 'to keep' }, op: 'createApiKey' }))
      .body as { id: string; key: string };
    expect(
      (await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: key, op: 'listSkus' })).status,
    ).toBe(200);

    expectProblem(await h.call('DELETE', `/__mock/api-keys/${id}`, { token: null }), 401, null);
    const revoked = await h.call('DELETE', `/__mock/api-keys/${id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');

    for (const op of [
      { method: 'GET', path: '/v1/items/skus', operationId: 'listSkus' },
      { method: 'GET', path: '/v1/admin/tenants/self', operationId: 'getTenantSelf' },
      { method: 'POST', path: '/v1/access/apiKeys', operationId: 'createApiKey', body: { name: 'from a revoked key' } },
    ]) {
      const alone = await h.call(op.method, op.path, {
        token: null,
        apiKey: key,
        ...(op.body ? { body: op.body } : {}),
        op: op.operationId,
      });
      expectPlain401(alone);
      expect(alone.body.detail).toMatch(/not active/);
      expectPlain401(
        await h.call(op.method, op.path, { apiKey: key, ...(op.body ? { body: op.body } : {}), op: op.operationId }),
      );
    }
    // Through the one write seam: the record stays, inactive; the other key is untouched.
    const record = h.mock.control
      .tenant(h.org)
      .inspect()
      ?.apiKeys()
      .find((k) => k.id === id);
    expect(record).toMatchObject({ id, isActive: false });
    expect(
      (await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: kept.key, op: 'listSkus' })).status,
    ).toBe(200);

    // Idempotent; unknown ids are 404.
    expect((await h.call('DELETE', `/__mock/api-keys/${id}`)).status).toBe(204);
    expectProblem(await h.call('DELETE', '/__mock/api-keys/key_unknown_000001'), 404, 'COMMON.ENTITY.NOT_FOUND');
    expectProblem(
      await h.call('DELETE', `/__mock/api-keys/${id}`, { token: await h.token(adminClaims(freshOrg('other'))) }),
      404,
      'COMMON.ENTITY.NOT_FOUND',
    );
  });

  it('a key may revoke itself, and is refused from then on', async () => {
    const { id, key } = (
      await h.call('POST', '/v1/access/apiKeys', { body: { name: 'self-revoking' }, op: 'createApiKey' })
    ).body as { id: string; key: string };
    expect((await h.call('DELETE', `/__mock/api-keys/${id}`, { token: null, apiKey: key })).status).toBe(204);
    expectPlain401(await h.call('GET', '/__mock/fixtures', { token: null, apiKey: key }));
  });
});

describe('credentials are never recorded', () => {
  it('are redacted in the request journal (Authorization and X-Api-Key)', async () => {
    const h = await startHarness();
    try {
      const { key } = (await h.call('POST', '/v1/access/apiKeys', { body: { name: 'journaled' }, op: 'createApiKey' }))
        .body as { key: string };
      await h.call('GET', '/v1/items/skus?pageSize=1', { token: null, apiKey: key, op: 'listSkus' });
      await h.call('GET', '/v1/items/skus?pageSize=1', { apiKey: key, op: 'listSkus' });
      await h.call('GET', '/v1/admin/tenants/self', {
        headers: { Cookie: 'session=secret-cookie' },
        op: 'getTenantSelf',
      });
      const journal = await h.call('GET', '/__mock/requests');
      const entries = journal.body.requests as { headers: Record<string, string> }[];
      expect(entries.length).toBeGreaterThanOrEqual(4);
      expect(entries.filter((e) => 'authorization' in e.headers).length).toBeGreaterThanOrEqual(3);
      for (const e of entries) {
        if ('authorization' in e.headers) expect(e.headers.authorization).toBe('[redacted]');
        if ('x-api-key' in e.headers) expect(e.headers['x-api-key']).toBe('[redacted]');
        if ('cookie' in e.headers) expect(e.headers.cookie).toBe('[redacted]');
      }
      expect(entries.some((e) => 'x-api-key' in e.headers)).toBe(true);
      expect(journal.text).not.toContain(h.admin);
      expect(journal.text).not.toContain(h.admin.split('.')[2]);
      expect(journal.text).not.toContain(key);
      expect(journal.text).not.toContain('secret-cookie');
    } finally {
      await h.close();
    }
  });

  it('never appear in the request log (--log-requests), whatever the answer', async () => {
    const { process: mock, url } = await startListening(
      process.execPath,
      opsapiNodeArgs(['mock', '--port', '0', '--rate-limit', 'off', '--quiet', '--log-requests']),
      { timeoutMs: 60_000 },
    );
    const wire = new Wire(url);
    try {
      const org = freshOrg('logged');
      const token = await mintToken('opsapi-local-mock-secret-change-me', adminClaims(org));
      const forged = await mintToken('another-secret', adminClaims(org));
      const created = await wire.send({
        method: 'POST',
        path: '/v1/access/apiKeys',
        headers: bearer(token),
        body: '{"name":"logged"}',
      });
      expect(created.status).toBe(201);
      const key = created.body.key as string;
      const requests = [
        { method: 'GET', path: '/v1/items/skus?pageSize=1', headers: bearer(token) },
        { method: 'GET', path: '/v1/items/skus?pageSize=1', headers: { 'x-api-key': key } },
        { method: 'GET', path: '/v1/items/skus?pageSize=1', headers: bearer(forged) },
        { method: 'GET', path: '/v1/items/skus?filterBy=%28', headers: bearer(token, { 'x-api-key': key }) },
        { method: 'PUT', path: '/v1/items/skus/X/stock', headers: bearer(token), body: '{broken' },
        { method: 'GET', path: '/nowhere', headers: bearer(token) },
      ];
      for (const r of requests) checkReply(r.method, r.path, await wire.send(r));
      // Lines are written as answers finish: poll (bounded) for one per request instead of a fixed wait.
      const logged = () =>
        mock
          .output()
          .split('\n')
          .filter((l) => l.startsWith('{')).length;
      for (const until = Date.now() + 5000; logged() < requests.length + 1 && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      await wire.close();
      await mock.stop();
    }
    const output = mock.output();
    const logLines = output.split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length, output.slice(0, 2000)).toBeGreaterThanOrEqual(7);
    expect(output.toLowerCase()).not.toContain('authorization');
    expect(output.toLowerCase()).not.toContain('x-api-key');
    expect(output).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/);
    expect(output).not.toMatch(/opsk_[A-Za-z0-9_-]{8,}/);
  });
});

describe('the body size limit', () => {
  let h: Harness;
  let wire: Wire;
  beforeAll(async () => {
    h = await startHarness({ bodyLimit: 4096 });
    wire = new Wire(h.url);
  });
  afterAll(async () => {
    await wire?.close();
    await h?.close();
  });

  it('answers a larger body with the plain 413 (no code), even without credentials', async () => {
    const body = { name: 'x'.repeat(5000) };
    for (const token of [h.admin, null]) {
      const reply = await h.call('POST', '/v1/access/apiKeys', { token, body, op: 'createApiKey' });
      expectProblem(reply, 413, null, 'POST /v1/access/apiKeys');
      expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.14');
    }
  });

  it('reads a body up to the limit', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(100) }).padEnd(4096, ' ');
    expect(Buffer.byteLength(body)).toBe(4096);
    expect((await h.call('POST', '/v1/access/apiKeys', { raw: body, op: 'createApiKey' })).status).toBe(201);
  });

  it('refuses a declared Content-Length over the limit without waiting for the body', async () => {
    const reply = await wire.raw(
      `PUT /v1/items/skus/X/stock HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.admin}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{`,
    );
    checkReply('PUT', '/v1/items/skus/X/stock', reply);
    expect(reply.status).toBe(413);
    expect(reply.body).not.toHaveProperty('code');
  });
});
