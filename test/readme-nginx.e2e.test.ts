import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type TestMock, type TestTenant } from 'opsapi/testing';
import { startChild, type Child } from '../common/process.js';
import { startOnFreePort } from '../common/free-port.js';
import { nginxAvailability } from './support/nginx.js';
import { runCommand } from './support/run-command.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Bounds: a command (openssl, `nginx -t`), nginx accepting connections, one request through it. */
const COMMAND_MS = 20_000;
const LISTEN_MS = 10_000;
const REQUEST_MS = 10_000;

/** The README's nginx blocks (fenced as `nginx`), each as written. */
function nginxBlocks(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^```nginx\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** `text` with each match of `pattern` replaced; throws when there is none, so a changed README fails here, loudly. */
function replaced(text: string, pattern: RegExp, by: (match: string) => string, what: string): string {
  if (text.match(pattern) === null) throw new Error(`the README nginx block has no ${what} (${pattern})`);
  return text.replace(pattern, by);
}

/** Where the filled-in configuration listens and forwards to, and the files it uses. */
interface Fill {
  readonly port: number;
  readonly mockPort: number;
  readonly cert: string;
  readonly key: string;
  readonly dir: string;
}

/**
 * The README block made runnable here: its `listen` on a free loopback port, every `server` of its upstream the
 * mock, its certificate a test one; and, for an unprivileged nginx, its access log and temporary files in `dir`
 * (their defaults are under /var). Nothing else of the block is changed.
 */
function filled(block: string, { port, mockPort, cert, key, dir }: Fill): string {
  let conf = replaced(block, /\blisten\s+[^;]*\bssl;/, () => `listen 127.0.0.1:${port} ssl;`, 'listen ... ssl');
  conf = replaced(
    conf,
    /\bupstream\s+\w+\s*\{[^}]*\}/,
    (upstream) => replaced(upstream, /\bserver\s+[^;]+;/g, () => `server 127.0.0.1:${mockPort};`, 'upstream server'),
    'upstream',
  );
  conf = replaced(conf, /\bssl_certificate\s+[^;]+;/, () => `ssl_certificate ${cert};`, 'ssl_certificate');
  conf = replaced(conf, /\bssl_certificate_key\s+[^;]+;/, () => `ssl_certificate_key ${key};`, 'ssl_certificate_key');
  const temporary = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`);
  const local = [`access_log ${dir}/access.log;`, ...temporary].map((directive) => `  ${directive}\n`).join('');
  return replaced(conf, /^http\s*\{\n/m, (open) => `${open}${local}`, 'http block');
}

/** The `nginx` arguments that keep its pid file and error log in `dir`; `more` adds main directives (`daemon off;`). */
const nginxArgs = (dir: string, conf: string, ...more: string[]) => [
  '-p',
  `${dir}/`,
  '-c',
  conf,
  '-g',
  `pid ${dir}/nginx.pid; error_log ${dir}/error.log;${more.join('')}`,
];

describe('the README nginx block, as written', () => {
  it('is one whole configuration that forwards the host and port the client used, and its scheme', () => {
    const blocks = nginxBlocks();
    expect(blocks).toHaveLength(1);
    const block = blocks[0] ?? '';
    expect(block).toMatch(/^events\s*\{\s*\}/m);
    expect(block).toMatch(/^http\s*\{/m);
    expect(block).toMatch(/proxy_pass http:\/\/opsapi;/);
    expect(block).toMatch(/proxy_set_header Host \$http_host;/);
    expect(block).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
  });
});

const nginx = nginxAvailability();

describe.skipIf(!nginx.run)('the README nginx block in front of a mock (real nginx, TLS, loopback)', () => {
  const binary = nginx.run ? nginx.nginx : 'nginx';
  let dir: string;
  let conf: string;
  let certPem: string;
  let mock: TestMock;
  let port: number;
  let cert: string;
  let key: string;
  const writeConf = (at: number) =>
    writeFileSync(conf, filled(nginxBlocks()[0] ?? '', { port: at, mockPort: mock.port, cert, key, dir }));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opsapi-nginx-'));
    // Started as root, nginx's workers run as an unprivileged user: they must reach the temporary files in `dir`.
    chmodSync(dir, 0o755);
    cert = join(dir, 'sandbox.crt');
    key = join(dir, 'sandbox.key');
    const openssl = await runCommand(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:sandbox.example',
      ],
      { timeoutMs: COMMAND_MS },
    );
    if (openssl.code !== 0) throw new Error(`openssl could not make a test certificate: ${openssl.stderr}`);
    certPem = readFileSync(cert, 'utf8');
    mock = await startMock({ rateLimit: 'off' });
    conf = join(dir, 'nginx.conf');
    // `nginx -t` binds nothing: any port does until nginx runs (then one found free: see below).
    writeConf(8443);
  });

  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes nginx -t', async () => {
    const test = await runCommand(binary, ['-t', ...nginxArgs(dir, conf)], { timeoutMs: COMMAND_MS });
    expect(test.code, `${test.stderr}\n${readFileSync(conf, 'utf8')}`).toBe(0);
    expect(test.stderr).toMatch(/test is successful/);
  });

  describe('with nginx running', () => {
    let server: Child | undefined;
    let origin: string;

    beforeAll(async () => {
      // nginx cannot bind port 0 and say which it got: a port found free, and another one if it was taken first.
      await startOnFreePort(async (free) => {
        writeConf(free);
        const started = startChild(binary, nginxArgs(dir, conf, ' daemon off;'), { name: 'nginx', killOnExit: true });
        try {
          await listening(started, free, () => errorLog(dir));
          // Accepting connections is not enough: another server may hold the port (nginx then exits). Ours answers
          // TLS with the test certificate.
          const health = await httpsCall(free, certPem, '/__mock/health', {});
          if (health.status !== 200) throw new Error(`nginx on ${free} answered /__mock/health ${health.status}`);
        } catch (error) {
          await started.stop(3000);
          throw error;
        }
        server = started;
        port = free;
      });
      origin = `https://127.0.0.1:${port}`;
    });

    afterAll(async () => {
      await server?.stop(3000);
    });

    /** A request to nginx over TLS, checked against the test certificate. */
    const call = (path: string, options: CallOptions = {}) => httpsCall(port, certPem, path, options);

    it('serves /docs, and the document the page reads names the origin nginx was reached at, with https', async () => {
      const page = await call('/docs');
      expect(page.status, page.text).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('<title>opsapi: Operations Platform API</title>');
      for (const path of ['/docs/json', '/openapi.json']) {
        const served = await call(path);
        expect(served.status, `${path}: ${served.text.slice(0, 500)}`).toBe(200);
        const [first, template] = servers(served.text);
        expect(first?.url, path).toBe(origin);
        expect(template?.variables?.base_url?.default, path).toBe(origin);
      }
      // Asked directly, the mock names its own plain-HTTP address: the https and the port came through nginx.
      const direct = await fetch(`${mock.url}/openapi.json`);
      expect(servers(await direct.text())[0]?.url).toBe(mock.url);
    });

    it('passes on the host and port the client wrote (Host $http_host), not only the host', async () => {
      const served = await call('/docs/json', { headers: { host: 'sandbox.example:8443' } });
      expect(served.status, served.text.slice(0, 500)).toBe(200);
      expect(servers(served.text)[0]?.url).toBe('https://sandbox.example:8443');
    });

    it('carries API calls to the mock and back: a list and a write with a body', async () => {
      const t: TestTenant = mock.tenant();
      const authorization = `Bearer ${await t.token()}`;
      const list = await call('/v1/items/skus?pageSize=1', { headers: { authorization } });
      expect(list.status, list.text).toBe(200);
      expect(JSON.parse(list.text).results).toHaveLength(1);
      const { reference, locationReference } = t.fixtures().sku;
      const write = await call(`/v1/items/skus/${encodeURIComponent(reference)}/stock`, {
        method: 'PUT',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ locationReference, stock: 12 }),
      });
      expect(write.status, write.text).toBe(204);
      expect(t.requests({ operationId: 'listSkus', status: 200 })).toHaveLength(1);
      expect(t.requests({ operationId: 'updateSkuStock', status: 204 })).toHaveLength(1);
    });

    it("leaves bodies over the mock's --body-limit to the mock, which answers its own 413 problem", async () => {
      const t: TestTenant = mock.tenant();
      const { reference, locationReference } = t.fixtures().sku;
      const padding = 'x'.repeat(mock.control.options.bodyLimit + 1);
      const tooLarge = await call(`/v1/items/skus/${encodeURIComponent(reference)}/stock`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ locationReference, stock: 12, padding }),
      });
      expect(tooLarge.status, tooLarge.text.slice(0, 500)).toBe(413);
      expect(tooLarge.headers['content-type']).toMatch(/^application\/problem\+json/);
    });
  });
});

/** The `servers` of an OpenAPI document the mock served: its origin first, then `{base_url}` defaulting to it. */
function servers(document: string): { url: string; variables?: { base_url?: { default: string } } }[] {
  return (JSON.parse(document) as { servers: ReturnType<typeof servers> }).servers;
}

/** nginx's error log so far (for failure messages). */
function errorLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'error.log'), 'utf8');
  } catch {
    return '(no error log)';
  }
}

/** Resolves once `port` accepts connections; rejects when `child` ends first or after LISTEN_MS. */
async function listening(child: Child, port: number, log: () => string): Promise<void> {
  const deadline = Date.now() + LISTEN_MS;
  for (;;) {
    const status = child.exitStatus();
    if (status) throw new Error(`nginx ended (${JSON.stringify(status)}):\n${child.output()}\n${log()}`);
    if (await accepts(port)) return;
    if (Date.now() > deadline) throw new Error(`nginx did not listen on ${port} in ${LISTEN_MS} ms:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether a TCP connection to the loopback port is accepted. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(1000);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

interface CallOptions {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

interface CallAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One HTTPS request to 127.0.0.1:`port` trusting only `ca`, without a kept-alive connection; bounded by REQUEST_MS. */
function httpsCall(port: number, ca: string, path: string, options: CallOptions): Promise<CallAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        ca,
        agent: false,
        timeout: REQUEST_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer through nginx in ${REQUEST_MS} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}
