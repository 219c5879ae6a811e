import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocument } from '../../spec/build.js';
import { injectHarness, type InjectHarness } from './harness.js';
import { INJECT_ORIGIN } from './transports.js';

/** The `servers` of the contract as served for a request with these headers. */
async function servers(
  h: InjectHarness,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ url: string; variables?: { base_url?: { default: string } } }[]> {
  const reply = await h.call('GET', path, { token: null, headers });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.servers;
}

describe('the documents a mock serves name the origin they were requested from', () => {
  let h: InjectHarness;

  beforeAll(async () => {
    h = await injectHarness();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('puts that origin first in the servers of /openapi.json, and as the default of {base_url}', async () => {
    const [first, template] = await servers(h, '/openapi.json', { host: 'mock.example:9999' });
    expect(first?.url).toBe('http://mock.example:9999');
    expect(template?.url).toBe('{base_url}');
    expect(template?.variables?.base_url?.default).toBe('http://mock.example:9999');
  });

  it('uses the Host the request came with (here the one app.inject() sends)', async () => {
    expect((await servers(h, '/openapi.json'))[0]?.url).toBe(INJECT_ORIGIN);
  });

  it('accepts container service names and IPv6 literals as hosts', async () => {
    expect((await servers(h, '/openapi.json', { host: 'opsapi_mock:4010' }))[0]?.url).toBe('http://opsapi_mock:4010');
    expect((await servers(h, '/openapi.json', { host: '[::1]:4010' }))[0]?.url).toBe('http://[::1]:4010');
  });

  it('changes nothing else of the contract', async () => {
    const reply = await h.call('GET', '/openapi.json', { token: null });
    const { servers: _served, ...rest } = reply.body;
    const { servers: _own, ...contract } = buildDocument();
    expect(rest).toEqual(JSON.parse(JSON.stringify(contract)));
  });

  it("follows a reverse proxy's X-Forwarded-Proto and X-Forwarded-Host, the first of a chain", async () => {
    const headers = {
      host: '10.0.0.7:4010',
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'api.example.com, proxy.internal',
    };
    expect((await servers(h, '/openapi.json', headers))[0]?.url).toBe('https://api.example.com');
    expect((await servers(h, '/openapi.json', { host: 'mock.example', 'x-forwarded-proto': 'https' }))[0]?.url).toBe(
      'https://mock.example',
    );
  });

  it('ignores a forwarded scheme or host that is no plain scheme or host', async () => {
    const headers = {
      host: 'mock.example:81',
      'x-forwarded-proto': 'javascript',
      'x-forwarded-host': 'evil.example/"><script>',
    };
    expect((await servers(h, '/openapi.json', headers))[0]?.url).toBe('http://mock.example:81');
  });

  it('tells caches that the answer depends on the forwarded headers', async () => {
    const reply = await h.call('GET', '/openapi.json', { token: null });
    expect(reply.headers.vary).toMatch(/x-forwarded-host/i);
  });

  it('fits the copy the /docs page reads (/docs/json) and the admin document the same way', async () => {
    expect((await servers(h, '/docs/json', { host: 'docs.example:1' }))[0]?.url).toBe('http://docs.example:1');
    expect((await servers(h, '/__mock/openapi.json', { host: 'docs.example:1' }))[0]?.url).toBe(
      'http://docs.example:1',
    );
  });
});

describe('the /docs page', () => {
  it('offers the contract and the admin API as two definitions, the contract first', async () => {
    const h = await injectHarness();
    const script = await h.call('GET', '/docs/static/swagger-initializer.js', { token: null });
    const config = JSON.parse(/const config = (.*)/.exec(script.text)?.[1] ?? 'null') as {
      urls: { url: string }[];
      'urls.primaryName': string;
    };
    expect(config.urls.map((u) => u.url)).toEqual(['/openapi.json', '/__mock/openapi.json']);
    expect(config['urls.primaryName']).toMatch(/Operations Platform API/);
    await h.close();
  });

  it('shows the contract alone when the admin API is off, which then has no document either', async () => {
    const h = await injectHarness({ admin: false });
    const script = await h.call('GET', '/docs/static/swagger-initializer.js', { token: null });
    expect(script.text).not.toMatch(/__mock/);
    expect((await h.call('GET', '/__mock/openapi.json', { token: null })).status).toBe(404);
    expect((await servers(h, '/docs/json'))[0]?.url).toBe(INJECT_ORIGIN);
    await h.close();
  });

  it('serves its assets as Swagger UI answers them: redirects, HEAD lengths, ETag revalidation, and a 404 problem for no asset', async () => {
    const h = await injectHarness();
    const redirect = await h.call('GET', '/docs/static/index.html', { token: null });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/docs/');
    const css = await h.call('GET', '/docs/static/swagger-ui.css', { token: null });
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const head = await h.call('HEAD', '/docs/static/swagger-ui.css', { token: null });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(css.text)));
    const again = await h.call('GET', '/docs/static/swagger-ui.css', {
      token: null,
      headers: { 'if-none-match': css.headers.etag ?? '' },
    });
    expect(again.status).toBe(304);
    const none = await h.call('GET', '/docs/static/no-such-asset.js', { token: null });
    expect(none.status).toBe(404);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    await h.close();
  });
});
