import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectHarness, type InjectHarness } from '../../test/harness.js';

/**
 * Problem faults are one `onSend` hook added before any route, so every problem of the mock carries them, whichever
 * part sent it: an operation, the admin plugin, the router's 404 and 405, the error pages, a framework error.
 */
const PROBLEM_SOURCES: readonly {
  what: string;
  method: string;
  path: string;
  token?: null;
  raw?: string;
  status: number;
}[] = [
  { what: 'an operation without credentials', method: 'GET', path: '/v1/items/skus', token: null, status: 401 },
  {
    what: 'the admin plugin, on a body of the wrong type',
    method: 'POST',
    path: '/__mock/tokens',
    token: null,
    raw: '{"org":5}',
    status: 400,
  },
  { what: 'the admin plugin, on invalid JSON', method: 'POST', path: '/__mock/clock', raw: '{', status: 400 },
  { what: 'an unknown route', method: 'GET', path: '/v1/nothing-here', status: 404 },
  { what: 'a known path with another method', method: 'PATCH', path: '/v1/items/skus', status: 405 },
  { what: 'an error page of an unknown code', method: 'GET', path: '/errors/NO.SUCH.CODE', token: null, status: 404 },
  { what: 'an undecodable path (a framework error)', method: 'GET', path: '/v1/items/skus/%E0%A4%A', status: 404 },
];

describe('a mock planted with instance-without-method and problem-content-type-missing', () => {
  let h: InjectHarness;
  beforeAll(async () => {
    h = await injectHarness({ faults: new Set(['instance-without-method', 'problem-content-type-missing']) });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(PROBLEM_SOURCES)(
    'sends the problem of $what as text/plain, its instance without the method',
    async ({ method, path, token, raw, status }) => {
      const reply = await h.call(method, path, {
        ...(token === null ? { token } : {}),
        ...(raw !== undefined ? { raw } : {}),
      });
      expect(reply.status).toBe(status);
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body.status).toBe(status);
      expect(reply.body.instance).toBe(path.split('?')[0]);
    },
  );

  it('leaves success bodies alone', async () => {
    const reply = await h.call('GET', '/v1/items/skus?pageSize=1');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.body.pageSize).toBe(1);
  });
});

describe('the faithful mock', () => {
  let h: InjectHarness;
  beforeAll(async () => {
    h = await injectHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(PROBLEM_SOURCES)(
    'sends the problem of $what as application/problem+json naming the method',
    async ({ method, path, token, raw, status }) => {
      const reply = await h.call(method, path, {
        ...(token === null ? { token } : {}),
        ...(raw !== undefined ? { raw } : {}),
      });
      expect(reply.status).toBe(status);
      expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(reply.body.instance).toBe(`${method} ${path}`);
    },
  );
});
