/**
 * `opsapi proxy`, `opsapi learn` and `opsapi conform --decisions` as commands: the proxy prints each violation as it happens, answers its report so
 * far, and on SIGTERM writes its reports and the HAR record (credentials redacted) and exits 1 after a MUST violation,
 * 0 without; `learn` prints the "inferred -> observed" table and writes the decision file. Bad input: one line, exit 2.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startListening } from '../../test/support/process.js';
import { startMockServer, type RunningMock } from '../../index.js';
import { opsapi, stderrLines } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'opsapi-proxy-cli-'));
let faulty: RunningMock;
let faithful: RunningMock;

beforeAll(async () => {
  faulty = await startMockServer({ port: 0, faults: new Set(['auth-401-with-code']) });
  faithful = await startMockServer({ port: 0 });
});
afterAll(async () => {
  await faulty?.close();
  await faithful?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `opsapi proxy` on a port the OS picks as it binds (test/support/process.ts, `startListening`). */
async function proxyProcess(target: string, extra: string[] = []) {
  const started = await startListening(process.execPath, [
    inject('opsapiCli'),
    'proxy',
    '--target',
    target,
    '--port',
    '0',
    ...extra,
  ]);
  return { child: started.process, url: started.url };
}

describe('opsapi proxy', () => {
  it('prints a MUST violation as it happens, reports it, records HAR without the token, and exits 1', async () => {
    const har = join(dir, 'traffic.har');
    const reports = ['report.json', 'report.xml', 'report.html'].map((f) => join(dir, f));
    const { child, url } = await proxyProcess(faulty.url, [
      '--record',
      har,
      ...reports.flatMap((r) => ['--report', r]),
    ]);
    const token = await faulty.control.tenant('proxy-cli').token();
    expect((await request(`${url}/v1/items/skus`)).statusCode).toBe(401);
    const ok = await request(`${url}/v1/items/skus?pageSize=2`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    await ok.body.dump();
    await child.waitFor(/MUST auth\.401-no-code: GET \/v1\/items\/skus -> 401/, 10_000);

    const soFar = await request(`${url}/__proxy/report`);
    const live = (await soFar.body.json()) as {
      traffic: { exchanges: number };
      checks: { id: string; outcome: string }[];
    };
    expect(live.traffic.exchanges).toBe(2);
    expect(live.checks.find((c) => c.id === 'auth.401-no-code')?.outcome).toBe('fail');

    const status = await child.stop(10_000);
    expect(status.code, child.output()).toBe(1);
    for (const file of reports) expect(existsSync(file), file).toBe(true);
    const json = JSON.parse(readFileSync(reports[0] as string, 'utf8')) as { tool: { name: string }; exitCode: number };
    expect(json.tool.name).toBe('opsapi proxy');
    expect(json.exitCode).toBe(1);
    expect(readFileSync(reports[1] as string, 'utf8')).toContain('<testsuites');
    const html = readFileSync(reports[2] as string, 'utf8');
    expect(html).toContain('id="verdict">FAILED<');
    expect(child.output()).toMatch(
      /FAILED: \d+ MUST rules? violated in 2 exchanges: [^\n]*auth\.401-no-code[^\n]* \(exit 1\)/,
    );
    expect(html).toMatch(/<section id="traffic">[\s\S]*2 exchanges \(1 with violations/);
    const record = JSON.parse(readFileSync(har, 'utf8')) as { log: { version: string; entries: unknown[] } };
    expect(record.log.version).toBe('1.2');
    expect(record.log.entries).toHaveLength(2);
    expect(readFileSync(har, 'utf8')).not.toContain(token);
  });

  it('reports nothing for faithful traffic and exits 0', async () => {
    const { child, url } = await proxyProcess(faithful.url);
    const token = await faithful.control.tenant('proxy-cli').token();
    for (const path of ['/v1/items/skus', '/v1/items/skus?filterBy=nope[Equals]1', '/v1/nope'])
      await (await request(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } })).body.dump();
    await (await request(`${url}/v1/items/skus`)).body.dump();
    const status = await child.stop(10_000);
    expect(status.code, child.output()).toBe(0);
    expect(child.output()).toContain('opsapi proxy: 4 exchanges, 0 with violations');
    expect(child.output()).toContain('PASSED: no MUST violation in 4 exchanges (exit 0)');
    expect(child.output()).not.toMatch(/^(MUST|SHOULD) /m);
  });

  it('refuses a target that is not an http URL in one line with exit 2', async () => {
    const run = await opsapi(['proxy', '--target', 'ftp://x']);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual(['opsapi proxy: --target: the target "ftp://x" is not an http(s) URL']);
  });

  it('refuses a --decisions file it cannot read in one line with exit 2', async () => {
    const run = await opsapi(['proxy', '--target', faithful.url, '--decisions', join(dir, 'none.json')]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toHaveLength(1);
    expect(stderrLines(run)[0]).toMatch(/^opsapi proxy: --decisions .*none\.json: cannot read it/);
  });
});

describe('opsapi learn', () => {
  it('prints the table and writes the decision file', async () => {
    const out = join(dir, 'decisions.json');
    const run = await opsapi(['learn', '--base-url', faithful.url, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/decisions observed, 0 differ from the contract/);
    expect(run.stdout).toContain('point: inferred -> observed');
    const file = JSON.parse(readFileSync(out, 'utf8')) as { format: string; decisions: unknown[] };
    expect(file.format).toBe('opsapi-decisions/1');
    expect(file.decisions.length).toBeGreaterThan(0);
  });

  it('gives opsapi conform --decisions a file it accepts, whose observed values the runner then expects', async () => {
    const file = JSON.parse(readFileSync(join(dir, 'decisions.json'), 'utf8')) as { decisions: { id: string }[] };
    // As if the deployment answered 404 to a subscription to an unknown event: the faithful mock's 400 now fails.
    const id = 'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND';
    const moved = {
      ...file,
      decisions: [
        ...file.decisions.filter((d) => d.id !== id),
        { id, title: '', inferred: 400, observed: 404, differs: true, evidence: [] },
      ],
    };
    const path = join(dir, 'moved.json');
    writeFileSync(path, JSON.stringify(moved));
    const only = ['--only', 'writes.subscription-event-not-found-400', '--allow-writes', '--allow-skips'];
    const run = await opsapi(['conform', '--base-url', faithful.url, '--decisions', path, ...only]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/FAIL\s+SHOULD\s+writes\.subscription-event-not-found-400/);
    const refused = await opsapi(['conform', '--base-url', faithful.url, '--decisions', join(dir, 'none.json')]);
    expect(refused.code).toBe(2);
    expect(stderrLines(refused)).toHaveLength(1);
  });

  it('refuses a missing --out in one line with exit 2', async () => {
    const run = await opsapi(['learn', '--base-url', faithful.url]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([
      'opsapi learn: --out is required (or OPSAPI_OUT): the file the decisions are written to',
    ]);
  });
});
