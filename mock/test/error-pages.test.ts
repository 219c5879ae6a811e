import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../spec/errors/index.js';
import { expectProblem, injectHarness, type InjectHarness, type Reply } from './harness.js';

/** Text as the error pages escape it: each of `& < > " '` as a numeric character reference. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What Chromium sends when it navigates to a page. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** A plain GET of an absolute URL of the mock, without credentials, as a reader following a `type` link does. */
function fetchUrl(h: InjectHarness, url: string, headers: Record<string, string> = {}): Promise<Reply> {
  expect(url.startsWith(`${h.origin}/`), `${url} is an address of the mock`).toBe(true);
  return h.call('GET', url.slice(h.origin.length), { token: null, headers });
}

describe('problem type URIs resolve on the mock (Errors / Problem body: type is {base_url}/errors/<code>)', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  /** Real problem responses of the mock, one per kind of failure. */
  const provoke = (): Promise<Reply>[] => [
    h.call('PUT', '/v1/items/skus/ANY/stock', { token: h.limited, body: { locationReference: 'L', stock: 1 } }),
    h.call('GET', '/v1/errors/NO.SUCH.CODE'),
    h.call('GET', `/v1/items/skus?filterBy=${encodeURIComponent('name[Nope]x')}`),
    h.call('GET', '/v1/items/skus?pageSize=0'),
    h.call('POST', '/v1/notifications/webhook/subscriptions', {
      body: { endpoint: 'http://127.0.0.1:1/hook', eventName: 'No.Such.Event', eventVersion: 1 },
    }),
    h.call('GET', '/v1/items/skus', { headers: { prefer: 'code=429' } }),
    h.call('PUT', '/v1/items/skus/ANY/stock', {
      body: { locationReference: 'L', stock: 1 },
      headers: { prefer: 'code=422' },
    }),
  ];

  it('names the mock origin in the type of every coded problem, and each type answers 200 without credentials', async () => {
    const problems = await Promise.all(provoke());
    const codes = new Set<string>();
    for (const p of problems) {
      expect(p.status, p.text).toBeGreaterThanOrEqual(400);
      const { type, code } = p.body as { type: string; code: string };
      expect(type).toBe(`${h.origin}/errors/${code}`);
      codes.add(code);
      const page = await fetchUrl(h, type);
      expect(page.status, `${type}: ${page.text.slice(0, 200)}`).toBe(200);
      expect(page.headers['content-type']).toMatch(/^application\/json/);
      expect((page.body as { code: string }).code).toBe(code);
    }
    expect(codes.size).toBe(problems.length);
  });

  it('answers the same body as GET /v1/errors/{errorCode}', async () => {
    for (const code of [
      'COMMON.ENTITY.NOT_FOUND',
      'COMMON.RATE_LIMIT.EXCEEDED',
      'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE',
      'WAREHOUSE.AI.GENERATED_INVALID_RESPONSE',
    ]) {
      const page = await fetchUrl(h, `${h.origin}/errors/${code}`);
      const api = await h.call('GET', `/v1/errors/${code}`, { op: 'getError' });
      expect(page.body).toEqual(api.body);
    }
  });

  it('resolves every code of the catalog', async () => {
    for (let i = 0; i < ERROR_CODES.length; i += 25) {
      const batch = await Promise.all(
        ERROR_CODES.slice(i, i + 25).map((code) => fetchUrl(h, `${h.origin}/errors/${code}`)),
      );
      for (const [j, page] of batch.entries()) expect(page.status, ERROR_CODES[i + j]).toBe(200);
    }
  });

  it('answers an HTML page to a client whose Accept prefers text/html', async () => {
    const page = await fetchUrl(h, `${h.origin}/errors/COMMON.AUTH.MISSING_PERMISSIONS`, { accept: BROWSER_ACCEPT });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers.vary).toMatch(/accept/i);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<title>COMMON.AUTH.MISSING_PERMISSIONS: ');
    expect(page.text).toContain('href="/errors/COMMON.AUTH.MISSING_PERMISSIONS?format=json"');
    expect(page.text).toContain('href="/docs"');
    // Self-contained: no script, no embedded resource, every link on this origin or inline.
    expect(page.text).not.toMatch(/<script|\ssrc=/i);
    for (const [, href] of page.text.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^(?:\/|data:)/);
  });

  it.each([
    { accept: undefined, what: 'no Accept header' },
    { accept: '*/*', what: 'Accept */*' },
    { accept: 'application/json', what: 'Accept application/json' },
    { accept: 'text/html;q=0.5, application/json', what: 'JSON weighted above HTML' },
    { accept: 'text/html, application/json', what: 'a tie between HTML and JSON' },
    { accept: 'image/png', what: 'neither type acceptable' },
  ])('answers JSON to $what', async ({ accept }) => {
    const page = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND`, accept ? { accept } : {});
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^application\/json/);
    expect((page.body as { code: string }).code).toBe('COMMON.ENTITY.NOT_FOUND');
  });

  it('varies on Accept and keeps the CORS headers for a browser origin', async () => {
    const page = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND`, { origin: 'http://app.example' });
    expect(page.headers['access-control-allow-origin']).toBe('http://app.example');
    expect(page.headers.vary).toMatch(/origin/i);
    expect(page.headers.vary).toMatch(/accept/i);
  });

  it('lets ?format= choose over Accept, so the HTML page can link to its JSON', async () => {
    const json = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND?format=json`, {
      accept: BROWSER_ACCEPT,
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    const html = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND?format=html`, {
      accept: 'application/json',
    });
    expect(html.headers['content-type']).toMatch(/^text\/html/);
  });

  it('refuses an unknown format with a 400 problem without code', async () => {
    const reply = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND?format=xml`);
    expectProblem(reply, 400, null, 'GET /errors/COMMON.ENTITY.NOT_FOUND');
    expect(reply.body.detail).toContain('json or html');
  });

  it.each([
    { what: 'an unknown code', path: '/errors/NO.SUCH.CODE' },
    { what: 'a code in the wrong case', path: '/errors/common.entity.not_found' },
    { what: 'markup in place of a code', path: `/errors/${encodeURIComponent('<b>x</b>')}` },
  ])(
    "answers $what with a 404: a problem without code for JSON, a page like the known codes' for a browser",
    async ({ path }) => {
      const reply = await fetchUrl(h, `${h.origin}${path}`, { accept: 'application/json' });
      expectProblem(reply, 404, null);
      expect(reply.body.type).toBe('https://www.rfc-editor.org/rfc/rfc9110#section-15.5.5');
      const page = await fetchUrl(h, `${h.origin}${path}`, { accept: BROWSER_ACCEPT });
      expect(page.status).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.text).toContain('No such code');
      expect(page.text).toContain(escapeHtml(decodeURIComponent(path.slice('/errors/'.length))));
      expect(page.text).not.toContain('<b>x</b>');
    },
  );

  it('is not the API: it needs no credentials and leaves the tenant journal alone', async () => {
    const page = await fetchUrl(h, `${h.origin}/errors/COMMON.ENTITY.NOT_FOUND`, {
      authorization: `Bearer ${h.admin}`,
    });
    expect(page.status).toBe(200);
    const journal = (await h.call('GET', '/__mock/requests')).body as { requests: { url?: string; path?: string }[] };
    expect(journal.requests.length).toBeGreaterThan(0);
    expect(journal.requests.filter((r) => (r.url ?? r.path ?? '').startsWith('/errors/'))).toEqual([]);
  });
});

describe('problem type URIs on a mock without the admin API', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness({ admin: false });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('still resolve: they are documentation, like /docs', async () => {
    const page = await fetchUrl(h, `${h.origin}/errors/COMMON.RATE_LIMIT.EXCEEDED`);
    expect(page.status).toBe(200);
    expect((page.body as { code: string }).code).toBe('COMMON.RATE_LIMIT.EXCEEDED');
  });
});
