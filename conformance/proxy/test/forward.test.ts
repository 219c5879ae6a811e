import { request as httpRequest } from 'node:http';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../../common/closed-port.js';
import {
  type CapturedExchange,
  type ForwardingProxyOptions,
  parseTarget,
  type RunningForwarder,
  startForwardingProxy,
} from '../forward.js';
import { BINARY_BODY, type EchoTarget, GZIPPED_JSON, LARGE_BODY, startEchoTarget } from './echo-target.js';
import { headerPairs, headerValues, send } from './raw-client.js';

let target: EchoTarget;
beforeAll(async () => {
  target = await startEchoTarget();
});
afterAll(() => target.close());

const running: RunningForwarder[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((p) => p.close()));
});

/** A proxy with a collector of its exchanges; `exchange(n)` waits (bounded) until the n-th one was reported. */
async function proxy(options: Partial<ForwardingProxyOptions> = {}) {
  const seen: CapturedExchange[] = [];
  const waiters: (() => void)[] = [];
  const p = await startForwardingProxy({
    target: target.url,
    ...options,
    onExchange: (x) => {
      seen.push(x);
      for (const w of waiters.splice(0)) w();
    },
  });
  running.push(p);
  const exchange = async (n: number): Promise<CapturedExchange> => {
    const deadline = Date.now() + 5000;
    while (seen.length < n && Date.now() < deadline)
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100).unref();
      });
    const x = seen[n - 1];
    if (!x) throw new Error(`exchange ${n} was not reported (got ${seen.length})`);
    return x;
  };
  return { url: p.url, p, seen, exchange };
}

/** The last two requests the target received: the direct one, then the one through the proxy. */
function lastTwo() {
  const n = target.received.length;
  return { direct: target.received[n - 2]!, proxied: target.received[n - 1]! };
}

/** Headers that legitimately differ between two connections (framing and the connection itself). */
const PER_CONNECTION = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'date'];

describe('the forwarding proxy', () => {
  it('forwards the method, path, query, raw header names, values, order and body bytes as a direct call delivers them', async () => {
    const { url } = await proxy();
    const body = Buffer.concat([BINARY_BODY, Buffer.from('{"name":"caf\u00e9"}')]);
    const call = {
      method: 'PUT',
      path: '/v1/items/skus/SKU-1/stock?filterBy=name%5BContains%5Dve&sortBy=-name&x=a+b%20c&empty=',
      headers: [
        'X-Trace',
        'abc',
        'accept',
        'application/json',
        'X-Multi',
        '1',
        'x-multi',
        '2',
        'Content-Type',
        'application/octet-stream',
        'Authorization',
        'Bearer t0ken',
        'Content-Length',
        String(body.length),
      ],
      body,
    };
    await send(target.url, call);
    await send(url, call);
    const { direct, proxied } = lastTwo();
    expect(proxied.method).toBe('PUT');
    expect(proxied.url).toBe(direct.url);
    expect(proxied.body.equals(direct.body)).toBe(true);
    expect(headerPairs(proxied.rawHeaders, PER_CONNECTION)).toEqual(headerPairs(direct.rawHeaders, PER_CONNECTION));
    expect(headerValues(proxied.rawHeaders, 'content-length')).toEqual([String(body.length)]);
  });

  it('streams a chunked upload and a 3 MB upload to the target byte for byte', async () => {
    const { url } = await proxy();
    const chunks = [Buffer.from('first,'), BINARY_BODY, Buffer.from(',last')];
    await send(url, { method: 'POST', path: '/upload', headers: ['Content-Type', 'text/plain'], body: chunks });
    expect(target.received.at(-1)!.body.equals(Buffer.concat(chunks))).toBe(true);
    await send(url, {
      method: 'POST',
      path: '/upload',
      headers: ['Content-Length', String(LARGE_BODY.length)],
      body: LARGE_BODY,
    });
    expect(target.received.at(-1)!.body.equals(LARGE_BODY)).toBe(true);
  });

  it("sends the target's host:port as Host and adds no header of its own (no Via) unless asked", async () => {
    const plain = await proxy();
    await send(plain.url, { path: '/who', headers: ['Host', 'api.example.test', 'X-One', '1'] });
    const got = target.received.at(-1)!;
    expect(headerValues(got.rawHeaders, 'host')).toEqual([target.host]);
    expect(headerPairs(got.rawHeaders, ['host', 'connection'])).toEqual([['X-One', '1']]);

    const withVia = await proxy({ via: true });
    await send(withVia.url, { path: '/who', headers: ['X-One', '1'] });
    expect(headerValues(target.received.at(-1)!.rawHeaders, 'via')).toEqual(['1.1 opsapi-proxy']);
  });

  it('does not forward hop-by-hop request headers: Connection and the names it lists, Keep-Alive, Proxy-*, TE', async () => {
    const { url, exchange } = await proxy();
    const headers = [
      'Connection',
      'close, X-Hop-Note',
      'X-Hop-Note',
      'for this hop',
      'Keep-Alive',
      'timeout=5',
      'Proxy-Authorization',
      'Basic abc',
      'Proxy-Connection',
      'keep-alive',
      'TE',
      'trailers',
      'X-Kept',
      'yes',
    ];
    await send(url, { path: '/hop', headers });
    expect(headerPairs(target.received.at(-1)!.rawHeaders, ['host', 'connection'])).toEqual([['X-Kept', 'yes']]);
    // The exchange keeps what the client sent, hop-by-hop headers included.
    expect((await exchange(1)).requestHeaders).toEqual(headerPairs([...headers, 'Host', new URL(url).host]));
  });

  it('prefixes the base path of the target', async () => {
    const { url } = await proxy({ target: `${target.url}/base/` });
    await send(url, { path: '/v1/items/skus?pageSize=1' });
    expect(target.received.at(-1)!.url).toBe('/base/v1/items/skus?pageSize=1');
  });

  it('passes every answer back as the direct call gets it: status, status text, headers and body bytes', async () => {
    const { url } = await proxy();
    for (const path of [
      '/answer/json',
      '/answer/gzip',
      '/answer/chunked',
      '/answer/204',
      '/answer/medium',
      '/answer/large',
      '/answer/binary',
      '/answer/slow',
    ]) {
      const direct = await send(target.url, { path, headers: ['Accept-Encoding', 'gzip'] });
      const proxied = await send(url, { path, headers: ['Accept-Encoding', 'gzip'] });
      const hop = [...PER_CONNECTION.filter((h) => h !== 'content-length'), 'x-hop-note', 'proxy-authenticate'];
      expect({ path, status: proxied.status, text: proxied.statusText }).toEqual({
        path,
        status: direct.status,
        text: direct.statusText,
      });
      expect(headerPairs(proxied.rawHeaders, hop), path).toEqual(headerPairs(direct.rawHeaders, hop));
      expect(proxied.body.equals(direct.body), path).toBe(true);
    }
    const head = { method: 'HEAD', path: '/answer/large' };
    const [directHead, proxiedHead] = [await send(target.url, head), await send(url, head)];
    expect(proxiedHead.status).toBe(directHead.status);
    expect(headerValues(proxiedHead.rawHeaders, 'content-length')).toEqual([String(LARGE_BODY.length)]);
    expect(proxiedHead.body.length).toBe(0);
    const gzip = await send(url, { path: '/answer/gzip' });
    expect(gzip.body.equals(GZIPPED_JSON)).toBe(true);
    expect(headerValues(gzip.rawHeaders, 'content-encoding')).toEqual(['gzip']);
  });

  it("does not pass on the target's hop-by-hop response headers", async () => {
    const { url, exchange } = await proxy();
    const answer = await send(url, { path: '/answer/json' });
    const names = headerPairs(answer.rawHeaders).map(([n]) => n.toLowerCase());
    expect(names).not.toContain('x-hop-note');
    expect(names).not.toContain('proxy-authenticate');
    // ... while the exchange keeps them as the target sent them.
    const x = await exchange(1);
    expect(x.responseHeaders).toContainEqual(['X-Hop-Note', 'dropped']);
    expect(x.responseHeaders).toContainEqual(['Proxy-Authenticate', 'Basic']);
  });

  it('hands each finished exchange to onExchange, bodies cut at captureBytes with their true sizes', async () => {
    const { url, exchange } = await proxy({ captureBytes: 1000 });
    const upload = LARGE_BODY.subarray(0, 5000);
    const before = Date.now();
    await send(url, {
      method: 'POST',
      path: '/answer/large?a=1',
      headers: ['Content-Type', 'text/plain', 'Content-Length', '5000'],
      body: upload,
    });
    await send(url, { path: '/answer/gzip' });
    const first = await exchange(1);
    expect(first).toMatchObject({
      seq: 1,
      method: 'POST',
      target: '/answer/large?a=1',
      httpVersion: '1.1',
      requestBodySize: 5000,
      status: 200,
      statusText: 'OK',
      responseBodySize: LARGE_BODY.length,
    });
    expect(first.error).toBeUndefined();
    expect(first.startedAt).toBeGreaterThanOrEqual(before);
    expect(first.durationMs).toBeGreaterThanOrEqual(0);
    expect(first.requestHeaders.slice(0, 2)).toEqual([
      ['Content-Type', 'text/plain'],
      ['Content-Length', '5000'],
    ]);
    expect(first.requestBody.equals(upload.subarray(0, 1000))).toBe(true);
    expect(first.responseBody.equals(LARGE_BODY.subarray(0, 1000))).toBe(true);
    expect(first.responseHeaders).toContainEqual(['content-length', String(LARGE_BODY.length)]);
    const second = await exchange(2);
    expect(second.seq).toBe(2);
    expect(second.responseBody.equals(GZIPPED_JSON)).toBe(true);
  });

  it('answers a 502 problem when the target cannot be reached, and reports the exchange with status 0 and why', async () => {
    const port = await closedPort();
    const { url, exchange } = await proxy({ target: `http://127.0.0.1:${port}` });
    const answer = await send(url, { path: '/v1/items/skus?pageSize=1' });
    expect(answer.status).toBe(502);
    expect(headerValues(answer.rawHeaders, 'content-type')).toEqual(['application/problem+json']);
    const problem = JSON.parse(answer.body.toString('utf8'));
    expect(problem).toEqual({
      type: 'https://www.rfc-editor.org/rfc/rfc9110#section-15.6.3',
      title: 'Bad Gateway',
      status: 502,
      detail: expect.stringContaining('ECONNREFUSED'),
      instance: 'GET /v1/items/skus',
    });
    const x = await exchange(1);
    expect(x.status).toBe(0);
    expect(x.error).toMatch(/ECONNREFUSED/);
  });

  it('answers a 502 problem when the target does not answer within timeoutMs', async () => {
    const { url, exchange } = await proxy({ timeoutMs: 300 });
    const answer = await send(url, { path: '/answer/silent' });
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body.toString('utf8')).detail).toMatch(/timeout/i);
    expect((await exchange(1)).error).toMatch(/timeout/i);
  });

  it('survives a client that leaves mid-answer or mid-upload, and answers the next request', async () => {
    const { url, exchange } = await proxy();
    const { port } = new URL(url);
    await new Promise<void>((resolve) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/answer/hang', agent: false }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    expect((await exchange(1)).error).toMatch(/client closed/);
    // The upstream request was aborted too: the target saw its connection close mid-answer.
    for (let i = 0; i < 50 && target.cutShort === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(target.cutShort).toBe(1);

    const upload = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/upload',
      agent: false,
      headers: { 'content-length': '1000' },
    });
    upload.on('error', () => undefined);
    upload.write('only ten b');
    setTimeout(() => upload.destroy(), 50).unref();
    expect((await exchange(2)).error).toBeDefined();

    const next = await send(url, { path: '/answer/json' });
    expect(next.status).toBe(201);
  });

  it('lets intercept answer /__proxy/... without forwarding or reporting it, and forwards the rest', async () => {
    const before = target.received.length;
    const { url, seen } = await proxy({
      intercept: {
        prefix: '/__proxy/',
        answer: ({ target: path }) => {
          if (path === '/__proxy/report')
            return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"report":true}' };
          if (path === '/__proxy/later') return Promise.resolve().then(() => ({ status: 200, body: 'later' }));
          throw new Error('the report is broken');
        },
      },
    });
    expect((await send(url, { path: '/__proxy/report' })).body.toString()).toBe('{"report":true}');
    expect((await send(url, { path: '/__proxy/later' })).body.toString()).toBe('later');
    const broken = await send(url, { path: '/__proxy/broken' });
    expect(broken.status).toBe(500);
    expect(JSON.parse(broken.body.toString()).detail).toBe('the report is broken');
    expect(target.received.length).toBe(before);
    expect((await send(url, { path: '/answer/json' })).status).toBe(201);
    expect(target.received.length).toBe(before + 1);
    expect(seen.map((x) => x.target)).toEqual(['/answer/json']);
  });

  it('keeps forwarding when onExchange throws', async () => {
    const p = await startForwardingProxy({
      target: target.url,
      onExchange: () => {
        throw new Error('observer bug');
      },
    });
    running.push(p);
    expect((await send(p.url, { path: '/answer/json' })).status).toBe(201);
    expect((await send(p.url, { path: '/answer/json' })).status).toBe(201);
  });

  it('closes with keep-alive clients connected, and then refuses connections', async () => {
    const p = await startForwardingProxy({ target: target.url, onExchange: () => undefined });
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    const res = await request(`${p.url}/answer/json`, { dispatcher: agent });
    await res.body.arrayBuffer();
    await p.close();
    await expect(send(p.url, { path: '/answer/json', timeoutMs: 2000 })).rejects.toThrow(/ECONNREFUSED/);
    await agent.close();
  });

  it('refuses a target that is not a base URL, and options out of range', async () => {
    expect(parseTarget('http://h:1/base/')).toEqual({ ok: true, origin: 'http://h:1', basePath: '/base' });
    expect(parseTarget('ftp://h')).toMatchObject({ ok: false });
    expect(parseTarget('http://h/?q=1')).toMatchObject({ ok: false });
    await expect(startForwardingProxy({ target: 'not a url', onExchange: () => undefined })).rejects.toThrow(
      /not a URL/,
    );
    await expect(
      startForwardingProxy({ target: target.url, timeoutMs: 0, onExchange: () => undefined }),
    ).rejects.toThrow(/timeoutMs/);
  });
});
