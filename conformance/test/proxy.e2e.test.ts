/**
 * `opsapi proxy` judges traffic with the runner's own rules: the whole conformance run (webhook flow included) sent
 * through it to the faithful mock finds no violation and every answer comes back byte for byte; behind it, each
 * planted fault of the mock is caught by the check meant for it, and by the proxy itself wherever one exchange shows it.
 *
 * The same whole run also stands for a client of a faithful real server that sends fields the reference does not
 * show: it reaches the proxy through a test proxy that adds such a member to every answer (see the last part).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULTS, startMockServer, type FaultName, type RunningMock } from '../../index.js';
import { OPERATIONS, operation } from '../../spec/operations/index.js';
import { startFieldAddingProxy, type FieldAddingProxy } from '../../test/support/field-adding-proxy.js';
import { contract } from '../contract/contract.js';
import { ProxyChecker, type Violation } from '../proxy/checker.js';
import { startForwardingProxy } from '../proxy/forward.js';
import { textSummary } from '../report/text.js';
import { runConformance } from '../orchestration/runner.js';
import type { Report } from '../types.js';
import { EXPECTED } from './support/fault-checks.js';

const RATE = { limit: 300, windowMs: 1000 };
const FULL = { allowWrites: true, webhooks: true, rateLimitProbe: true } as const;

/** A proxy with its checker in front of a target. */
async function proxyTo(target: string) {
  const violations: Violation[] = [];
  const checker = new ProxyChecker({
    target: new URL(target),
    validator: contract().validator,
    onViolation: (v) => violations.push(v),
  });
  const proxy = await startForwardingProxy({ target, onExchange: (x) => checker.add(x) });
  return { proxy, checker, violations };
}

const failing = (report: Report) => report.checks.filter((c) => c.outcome === 'fail').map((c) => c.id);

/** The member the field-adding proxy adds to every JSON object of every `/v1` answer. */
const ADDED = 'x_proxy_note';

/**
 * One whole run for this part and the last (inferred: a second full run, for the last part alone, proved nothing more
 * and cost ~3 s of CPU): the runner, strict, with writes, webhooks and the rate-limit probe, calls the field-adding
 * proxy, which calls the checking proxy, which calls the faithful mock. So the checking proxy judges the mock's own
 * answers (the added member never reaches it: it is added on the runner's side), and the runner reads answers with a
 * member the contract does not name. Rate limit as in runner.e2e.test.ts.
 */
let mock: RunningMock;
let through: Awaited<ReturnType<typeof proxyTo>>;
let adder: FieldAddingProxy;
let run: Report;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimit: RATE });
  through = await proxyTo(mock.url);
  adder = await startFieldAddingProxy(through.proxy.url, ADDED);
  run = await runConformance({ baseUrl: adder.url, ...FULL, strict: true });
}, 120_000);
afterAll(async () => {
  await adder?.close();
  await through?.proxy.close();
  await mock?.close();
});

describe('the whole conformance run through the proxy to the faithful mock', () => {
  it('passes the run as it does directly, and the proxy reports no violation', () => {
    expect(failing(run)).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(through.violations.map((v) => `${v.check}: ${v.message}`)).toEqual([]);
    const report = through.checker.report();
    expect(report.exitCode).toBe(0);
    expect(report.checks.filter((c) => c.outcome === 'fail')).toEqual([]);
    // The run's traffic exercised nearly every rule: problem bodies, pairs, pages, sorts, schemas, 401s and 403s.
    const judged = report.checks.filter((c) => c.outcome === 'pass').map((c) => c.id);
    for (const id of [
      'auth.401-no-code',
      'errors.problem-shape',
      'errors.status-code-pair',
      'lists.envelope',
      'lists.sort-order',
      'schema.responses-valid',
    ])
      expect(
        judged.some((j) => j === id || j === `${id}.inferred`),
        id,
      ).toBe(true);
  });

  it('reports what the traffic covered: operations, declared answers, and requests outside the contract', () => {
    const traffic = through.checker.report().traffic;
    expect(traffic?.operations.called).toBe(OPERATIONS.length);
    expect(traffic?.pairs.met).toBeGreaterThan(0);
    expect(traffic?.pairs.met).toBeLessThanOrEqual(traffic?.pairs.total ?? 0);
    // The runner's calls of the mock's admin API are forwarded and counted as not in the contract.
    expect(traffic?.notInContract.count).toBeGreaterThan(0);
    expect(traffic?.notInContract.first.some((l) => l.includes('/__mock/'))).toBe(true);
    expect(traffic?.recent.length).toBeGreaterThan(0);
  });

  it('answers every example request byte for byte as the mock does directly', async () => {
    const token = await mock.control.tenant('proxy-bytes').token();
    const paths = [
      ...OPERATIONS.filter((op) => op.method === 'get').map((op) =>
        op.path.replace(/\{(\w+)\}/g, (_, name: string) => op.pathParams.find((p) => p.name === name)?.example ?? 'x'),
      ),
      '/v1/items/skus?filterBy=name[Contains]bolt&sortBy=-name&pageSize=3',
      '/v1/items/skus?filterBy=nope[Equals]1',
      '/v1/no/such/path',
    ];
    for (const path of paths) {
      for (const auth of [{ authorization: `Bearer ${token}` }, {}]) {
        const direct = await request(`${mock.url}${path}`, { headers: auth });
        const proxied = await request(`${through.proxy.url}${path}`, { headers: auth });
        const [a, b] = [Buffer.from(await direct.body.arrayBuffer()), Buffer.from(await proxied.body.arrayBuffer())];
        expect(proxied.statusCode, path).toBe(direct.statusCode);
        expect(b.equals(a), `${path}: body bytes`).toBe(true);
        const strip = (h: Record<string, unknown>) => {
          const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = h;
          return rest;
        };
        expect(strip(proxied.headers), `${path}: headers`).toEqual(strip(direct.headers));
      }
    }
  });
});

/** The proxy's own rule that a single exchange of the run shows each fault by (faults only an active check sees: none). */
const PASSIVE: Partial<Record<FaultName, string>> = {
  'auth-401-with-code': 'auth.401-no-code',
  'auth-401-wrong-type': 'auth.401-type',
  'forbidden-wrong-code': 'permissions.403-code',
  'forbidden-no-permission-name': 'permissions.403-names-permission',
  'total-pages-off-by-one': 'lists.envelope',
  'page-size-default-20': 'lists.envelope',
  'page-size-1001-accepted': 'lists.envelope',
  'filter-unknown-column-accepted': 'filters.unknown-column',
  'sort-descending-ignored': 'lists.sort-order',
  'instance-without-method': 'errors.problem-instance',
  'problem-content-type-missing': 'errors.problem-content-type',
  'rate-limit-no-parameters': 'errors.problem-shape',
  'stock-update-200-body': 'schema.responses-valid',
  'problem-status-mismatch': 'errors.problem-status',
};

/**
 * Requests that show every fault a single exchange can show: a 401, a 403, default, oversized, filtered (unknown
 * column) and sorted pages, a problem, a stock update and, in a tenant of its own, a burst past the rate limit.
 */
async function showcase(mock: RunningMock, proxyUrl: string): Promise<void> {
  const stock = operation('updateSkuStock');
  const admin = { authorization: `Bearer ${await mock.control.tenant('demo').token()}` };
  const limited = {
    authorization: `Bearer ${await mock.control.tenant('demo').token({ permissions: ['Warehouse.Skus.Read'] })}`,
  };
  const burst = { authorization: `Bearer ${await mock.control.tenant('burst').token()}` };
  const send = async (
    path: string,
    headers: Record<string, string> = {},
    init: { method?: 'PUT'; body?: unknown } = {},
  ) => {
    const res = await request(`${proxyUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    await res.body.dump();
  };
  await send('/v1/items/skus');
  await send('/v1/maintenance/assets', limited);
  for (const query of ['', '?pageSize=1001', '?filterBy=nope[Equals]1', '?sortBy=-name&pageSize=50'])
    await send(`/v1/items/skus${query}`, admin);
  const sku = stock.pathParams[0]?.example as string;
  await send(stock.path.replace('{skuReference}', sku), admin, { method: 'PUT', body: stock.requestBody?.example });
  for (let i = 0; i < BURST.limit + 5; i++) await send('/v1/admin/tenants/self', burst);
}

/** A rate limit the showcase's burst exceeds at once, and its other requests never reach. */
const BURST = { limit: 20, windowMs: 60_000 };

describe('each planted fault behind the proxy', () => {
  for (const fault of Object.keys(FAULTS) as FaultName[]) {
    const rule = PASSIVE[fault];
    const title = rule
      ? `${fault}: the proxy reports ${rule} from the traffic alone`
      : `${fault}: the run through the proxy fails ${EXPECTED[fault]} (one exchange cannot show it)`;
    it(title, async () => {
      const mock = await startMockServer({ port: 0, rateLimit: rule ? BURST : RATE, faults: new Set([fault]) });
      const through = await proxyTo(mock.url);
      try {
        if (rule) {
          await showcase(mock, through.proxy.url);
          const report = through.checker.report();
          const reported = failing(report).filter((id) => id === rule || id === `${rule}.inferred`);
          expect(reported, `proxy failures: ${failing(report).join(', ')}`).not.toEqual([]);
          expect(through.violations.some((v) => v.check.startsWith(rule))).toBe(true);
          expect(report.exitCode).toBe(report.checks.some((c) => c.level === 'MUST' && c.outcome === 'fail') ? 1 : 0);
        } else {
          const run = await runConformance({ baseUrl: through.proxy.url, ...FULL, only: [EXPECTED[fault]] });
          expect(failing(run)).toContain(EXPECTED[fault]);
        }
      } finally {
        await through.proxy.close();
        await mock.close();
      }
    }, 60_000);
  }

  it('reports nothing for the same showcase against the faithful mock', async () => {
    const mock = await startMockServer({ port: 0, rateLimit: BURST });
    const through = await proxyTo(mock.url);
    try {
      await showcase(mock, through.proxy.url);
      expect(through.violations.map((v) => `${v.check}: ${v.message}`)).toEqual([]);
    } finally {
      await through.proxy.close();
      await mock.close();
    }
  });

  it('names a rule for every fault a single exchange can show, and leaves the others to the active checks', () => {
    expect(Object.keys(PASSIVE).every((f) => f in FAULTS)).toBe(true);
    // Faults seen only across exchanges or outside the proxied traffic (webhook deliveries go to the receiver).
    expect(
      Object.keys(FAULTS)
        .filter((f) => !(f in PASSIVE))
        .sort(),
    ).toEqual(
      [
        'cancelled-line-modifiable',
        'contains-as-equals',
        'signature-reserialised',
        'signature-uppercase-hex',
        'unknown-error-code-200',
      ].sort(),
    );
  });
});

/**
 * A faithful real server sends fields the reference does not show ("Other SKU fields: not shown", "Other fields
 * returned for a subscription: not shown"; RFC 9457 extension members in problems). The whole run above reads every
 * `/v1` answer with one such member added to each JSON object; the strict run must pass and list the members as
 * information.
 */
describe('the runner against a server that sends fields the contract does not name', () => {
  it('went through the proxy, which added the member to the answers', () => {
    expect(run.mockAdmin).toBe(true);
    expect(adder.decorated).toBeGreaterThan(100);
  });

  it('passes under --strict with --allow-writes --webhooks --rate-limit-probe: exit 0, nothing failed or errored', () => {
    const broken = run.checks
      .filter((c) => c.outcome === 'fail' || c.outcome === 'error')
      .map((c) => `${c.id}: ${c.reason ?? c.evidence[0]?.message ?? ''}`);
    expect(broken).toEqual([]);
    expect(run.exitCode).toBe(0);
    expect(run.checks.find((c) => c.id === 'schema.responses-valid.inferred')?.outcome).toBe('pass');
    expect(run.checks.find((c) => c.id === 'schema.responses-valid')?.outcome).toBe('pass');
  });

  it('lists the added members as information of the schema checks, one line per operation and field', () => {
    const schema = run.checks.filter((c) => c.family === 'schema');
    const info = schema.flatMap((c) => c.info ?? []);
    for (const line of info) expect(line).toMatch(new RegExp(`^\\w+: (\\S+\\.)?${ADDED}$`));
    for (const c of schema) expect(c.info?.length, c.id).toBe(Math.min(20, c.infoCount ?? 0));
    // Every operation gets a line before any gets a second, fields of items first: the SKU item field is among those kept.
    const inferred = run.checks.find((c) => c.id === 'schema.responses-valid.inferred');
    expect(inferred?.info).toContain(`listSkus: results[].${ADDED}`);
    expect(inferred?.infoCount).toBeGreaterThan(20);
  });

  it('shows the information in the text summary and keeps it in the JSON report', () => {
    const text = textSummary(run, false);
    expect(text).toContain('Information');
    expect(text).toContain(`listSkus: results[].${ADDED}`);
    const json = JSON.parse(JSON.stringify(run)) as Report;
    const inferred = json.checks.find((c) => c.id === 'schema.responses-valid.inferred');
    expect(inferred?.info?.length).toBeGreaterThan(0);
    expect(inferred?.infoCount).toBeGreaterThanOrEqual(inferred?.info?.length ?? 0);
  });
});
