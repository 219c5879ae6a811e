/**
 * `opsapi coverage` against a running mock (docs/DESIGN.md, "Testing API"): prints what a tenant's traffic exercised, writes
 * reports, and is a gate: exit 1 under a minimum naming what is missing, 0 at or above it, 2 when it cannot tell.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../common/closed-port.js';
import { startMockServer, type RunningMock } from '../../index.js';
import { hitEveryPair, type TenantCall } from '../../test/support/every-pair.js';
import { opsapi, stderrLines } from './run-cli.js';

let mock: RunningMock;
let counter = 0;
const dir = mkdtempSync(join(tmpdir(), 'opsapi-coverage-'));

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimit: null });
});

afterAll(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh tenant of the mock: its org, an admin token and a call helper over HTTP. */
async function tenant() {
  counter += 1;
  const control = mock.control.tenant(`coverage-cli-${process.pid}-${counter}`);
  const token = await control.token();
  const call: TenantCall = async (method, path, options = {}) => {
    const res = await fetch(`${mock.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return { control, token, call };
}

describe('opsapi coverage after a suite that called only GET /v1/items/skus', () => {
  let t: Awaited<ReturnType<typeof tenant>>;

  beforeAll(async () => {
    t = await tenant();
    expect((await t.call('GET', '/v1/items/skus')).status).toBe(200);
  });

  it('prints the totals and each operation with the answers it never met, and exits 0 without a minimum', async () => {
    const run = await opsapi(['coverage', '--base-url', mock.url, '--token', t.token]);
    expect(run.code, run.stderr).toBe(0);
    const total = t.control.coverage().summary.pairs.total;
    expect(run.stdout).toContain(
      `opsapi coverage of ${mock.url}: operations 1/19 called (5.2%), answers 1/${total} met`,
    );
    expect(run.stdout).toContain(
      '  GET /v1/items/skus (listSkus): called 1, met 1/7; never saw 400 COMMON.QUERY.FILTER_PARSING_FAILED,',
    );
    expect(run.stdout).toContain(
      '  PUT /v1/items/skus/{skuReference}/stock (updateSkuStock): never called, met 0/8; never saw 204, 400, 401, 403, 404, 422 COMMON.QUANTITY.UNIT_NOT_CONFIGURED,',
    );
  });

  it('exits 1 under --min-pairs 100%, naming the pairs never seen', async () => {
    const run = await opsapi(['coverage', '--base-url', mock.url, '--token', t.token, '--min-pairs', '100%']);
    expect(run.code, run.stderr).toBe(1);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^opsapi coverage: pairs 0\.\d% < 100%: never saw 201 on POST \/v1\/access\/apiKeys \(createApiKey\), 400 on POST \/v1\/access\/apiKeys \(createApiKey\), .*, and \d+ more\n$/,
    );
  });

  it('names the operations never called under --min-operations', async () => {
    const run = await opsapi(['coverage', '--base-url', mock.url, '--token', t.token, '--min-operations', '50']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(
      /^opsapi coverage: operations 5\.2% < 50%: never called POST \/v1\/access\/apiKeys \(createApiKey\), /,
    );
  });

  it('counts only the operations named by --operations: the stock update the client uses never saw its 429', async () => {
    const run = await opsapi([
      'coverage',
      '--base-url',
      mock.url,
      '--token',
      t.token,
      '--operations',
      'listSkus,updateSkuStock',
      '--min-pairs',
      '100%',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('operations 1/2 called (50%), answers 1/15 met (6.6%)');
    expect(run.stderr).toContain(
      'opsapi coverage: pairs 6.6% < 100%: never saw 204 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock), ',
    );
    expect(run.stderr).toContain('429 on PUT /v1/items/skus/{skuReference}/stock (updateSkuStock)');
  });

  it('reads its flags from OPSAPI_* as well', async () => {
    const run = await opsapi(['coverage'], {
      env: {
        OPSAPI_BASE_URL: mock.url,
        OPSAPI_TOKEN: t.token,
        OPSAPI_OPERATIONS: 'listSkus',
        OPSAPI_MIN_OPERATIONS: '100%',
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('operations 1/1 called (100%)');
  });

  it('writes a JSON and an HTML report that never hold the token', async () => {
    const json = join(dir, 'cov.json');
    const html = join(dir, 'cov.html');
    const run = await opsapi([
      'coverage',
      '--base-url',
      mock.url,
      '--token',
      t.token,
      '--report',
      json,
      '--report',
      html,
      '--min-pairs',
      '100%',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(stderrLines(run)).toEqual(
      expect.arrayContaining([`opsapi coverage: wrote ${json}`, `opsapi coverage: wrote ${html}`]),
    );
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({
      target: mock.url,
      restrictedTo: null,
      minimums: { pairs: 100 },
      gate: { ok: false },
      coverage: t.control.coverage(),
    });
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('Your client never handled 429 on PUT /v1/items/skus/{skuReference}/stock.');
    expect(page).toContain('Your client met 200 on GET /v1/items/skus once.');
    for (const text of [readFileSync(json, 'utf8'), page]) expect(text).not.toContain(t.token);
  });
});

describe('opsapi coverage after a suite that met every declared answer', () => {
  it('exits 0 with --min-operations 100% --min-pairs 100%', async () => {
    const t = await tenant();
    const fixtures = (await t.call('GET', '/__mock/fixtures')).body;
    const line = t.control
      .inspect()!
      .purchaseOrderLines()
      .find((l) => l.status === 'PartiallyReceived')!;
    await hitEveryPair(t.call, fixtures, {
      purchaseOrderId: line.purchaseOrderId,
      lineId: line.id,
      receivedQuantity: line.receivedQuantity,
    });
    const run = await opsapi([
      'coverage',
      '--base-url',
      mock.url,
      '--token',
      t.token,
      '--min-operations',
      '100%',
      '--min-pairs',
      '100%',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const total = t.control.coverage().summary.pairs.total;
    expect(run.stdout).toContain(`operations 19/19 called (100%), answers ${total}/${total} met (100%)`);
  });
});

describe('opsapi coverage when it cannot read the coverage', () => {
  it('says so in one line and exits 2 when nothing answers', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const run = await opsapi(['coverage', '--base-url', baseUrl, '--token', 'x.y.z']);
    expect(run.code, run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([
      expect.stringMatching(new RegExp(`^opsapi coverage: cannot reach ${baseUrl.replace(/[.:/]/g, '\\$&')}: `)),
    ]);
  });

  it('exits 2 with the answer when the mock refuses the token', async () => {
    const run = await opsapi(['coverage', '--base-url', mock.url, '--token', 'not-a-token', '--min-pairs', '100%']);
    expect(run.code, run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([
      `opsapi coverage: ${mock.url}/__mock/coverage answered 401: The Authorization header must be "Bearer <JWT>".`,
    ]);
  });

  it.each([
    { what: 'a percentage over 100', args: ['--min-pairs', '120%'], says: "argument '120%' is invalid" },
    {
      what: 'an unknown operationId',
      args: ['--operations', 'listSkus,listSkuz'],
      says: "unknown operationId 'listSkuz'",
    },
    {
      what: 'a report of another format',
      args: ['--report', 'cov.txt'],
      says: '--report cov.txt: use a .json or .html file name',
    },
    { what: 'no credential', args: [], says: 'needs --token' },
  ])('refuses $what in one line, exit 2, before calling the mock', async ({ args, says }) => {
    const run = await opsapi(
      ['coverage', '--base-url', 'http://127.0.0.1:9', ...(args.length === 0 ? [] : ['--token', 'x']), ...args],
      { env: { OPSAPI_TOKEN: '' } },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toContain(says);
    expect(run.stderr).not.toContain('    at ');
  });
});
