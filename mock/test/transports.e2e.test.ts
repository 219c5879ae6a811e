import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../auth/presets.js';
import { mintToken } from '../auth/tokens.js';
import { startMock, type RunningMock } from '../server.js';
import { freshOrg } from './harness.js';
import { INJECT_ORIGIN, overSocket, throughInject, type Incoming, type Send } from './transports.js';

/** What a test may compare between transports: status, content type and body (not date or connection headers). */
function essence(reply: Incoming): { status: number; contentType: string | undefined; body: unknown } {
  return {
    status: reply.status,
    contentType: reply.headers['content-type'],
    body: reply.text ? JSON.parse(reply.text) : undefined,
  };
}

describe('the two transports of the test harness, on one mock', () => {
  let mock: RunningMock;
  let socket: Send;
  let inject: Send;
  let token: string;

  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: null });
    socket = overSocket(mock.url);
    inject = throughInject(mock.app);
    token = await mintToken(mock.control.options.jwtSecret, adminClaims(freshOrg('transports')));
  });

  afterAll(async () => {
    await mock?.close();
  });

  it.each([
    { what: 'the health probe', req: { method: 'GET', path: '/__mock/health', headers: {} } },
    {
      what: 'a page of SKUs',
      req: { method: 'GET', path: '/v1/items/skus?pageSize=3&sortBy=id', headers: { authorization: 'Bearer <admin>' } },
    },
    { what: 'the plain 401', req: { method: 'GET', path: '/v1/items/skus', headers: {} } },
    {
      what: 'a body over a bad content type (415)',
      req: {
        method: 'POST',
        path: '/v1/access/apiKeys',
        headers: { authorization: 'Bearer <admin>', 'content-type': 'text/plain' },
        body: 'x',
      },
    },
    {
      what: 'an unknown route (404)',
      req: { method: 'GET', path: '/v1/nowhere', headers: { authorization: 'Bearer <admin>' } },
    },
  ])('answer $what alike', async ({ req }) => {
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v.replace('<admin>', token)]));
    const [overTheWire, injected] = await Promise.all([socket({ ...req, headers }), inject({ ...req, headers })]);
    expect(essence(injected)).toEqual(essence(overTheWire));
  });

  it('name their own origin as {base_url} in problem types: the listening URL, and INJECT_ORIGIN through inject()', async () => {
    const req = { method: 'GET', path: '/v1/errors/NO.SUCH.CODE', headers: { authorization: `Bearer ${token}` } };
    const [overTheWire, injected] = await Promise.all([socket(req), inject(req)]);
    expect(JSON.parse(overTheWire.text).type).toBe(`${mock.url}/errors/COMMON.ENTITY.NOT_FOUND`);
    expect(JSON.parse(injected.text).type).toBe(`${INJECT_ORIGIN}/errors/COMMON.ENTITY.NOT_FOUND`);
  });
});
