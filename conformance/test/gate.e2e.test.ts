import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims } from '../../index.js';
import { mintToken } from '../../index.js';
import { DEFAULT_JWT_SECRET } from '../../index.js';
import { startMockServer, type RunningMock } from '../../index.js';
import { NoCredentialError, UsageError } from '../errors.js';
import { allChecks } from '../orchestration/registry.js';
import { runConformance } from '../orchestration/runner.js';
import type { Report } from '../types.js';
import { opsapi, stderrLines } from './support/cli.js';

/**
 * The gate cannot pass by testing nothing: a run without any credential for its target stops with exit 2, and a run
 * that skipped more than half of its MUST checks exits 1 unless --allow-skips. The targets are real mocks with their
 * admin API off (what `--no-admin` does), so the runner cannot mint its own tokens (what a shared deployment looks
 * like). The CLI runs as a process of its own; the target listens in this process (inferred: a mock process proved
 * nothing more here, and `opsapi mock --no-admin --jwt-secret` is started by cli/test/shared-sandbox.e2e.test.ts).
 */
describe('opsapi conform as a CI gate', () => {
  let bare: RunningMock;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-gate-'));

  beforeAll(async () => {
    bare = await startMockServer({
      port: 0,
      admin: false,
      jwtSecret: DEFAULT_JWT_SECRET,
      rateLimit: { limit: 300, windowMs: 1000 },
    });
    token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('conform-gate'));
  }, 90_000);

  afterAll(async () => {
    await bare?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exits 2 with one line naming the options to pass when it holds no credential for the target', async () => {
    const run = await opsapi(['conform', '--base-url', bare.url]);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stderrLines(run)).toEqual([
      `opsapi conform: no credential for ${bare.url}: pass --token (or OPSAPI_TOKEN), --api-key, --token-command, or target a mock with its admin API`,
    ]);
    expect(run.stdout).toBe('');
  }, 60_000);

  it('exits 2 when OPSAPI_TOKEN is set but empty (a CI secret that is missing)', async () => {
    const run = await opsapi(['conform'], { OPSAPI_BASE_URL: bare.url, OPSAPI_TOKEN: '' });
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toContain(
      `no credential for ${bare.url} (the token given is empty): pass --token (or OPSAPI_TOKEN)`,
    );
  }, 60_000);

  it('runs without a credential when every selected check needs none (the unauthenticated auth checks)', async () => {
    const run = await opsapi(['conform', '--base-url', bare.url, '--only', 'auth.401-no-code,auth.401-type']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('2 of 2 MUST checks ran');
  }, 60_000);

  it('exits 1 when more than half of the MUST checks were skipped, and says how many ran', async () => {
    // Without --allow-writes the ten MUST writes checks are skipped for a missing precondition; auth.401-type runs.
    const file = join(dir, 'skipped.json');
    const run = await opsapi([
      'conform',
      '--base-url',
      bare.url,
      '--token',
      token,
      '--only',
      'writes,auth.401-type',
      '--report',
      file,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
    expect(report.mustRan).toBe(1);
    expect(report.mustTotal).toBeGreaterThan(2);
    expect(report.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'error')).toEqual([]);
    expect(report.exitReasons).toEqual([
      `only 1 of ${report.mustTotal} MUST checks ran (${report.mustTotal - 1} skipped, more than half): give what the skip reasons name, or pass --allow-skips`,
    ]);
    expect(run.stdout).toContain(`1 of ${report.mustTotal} MUST checks ran`);
    expect(run.stdout).toContain('exit 1: only 1 of');
    expect(run.stdout).not.toMatch(/NOT CERTIFIED[^\n]*no MUST check failed/);
  }, 60_000);

  it('exits 0 for the same run with --allow-skips (or OPSAPI_ALLOW_SKIPS)', async () => {
    const [flag, env] = await Promise.all([
      opsapi(['conform', '--base-url', bare.url, '--token', token, '--only', 'writes,auth.401-type', '--allow-skips']),
      opsapi(['conform', '--base-url', bare.url, '--only', 'writes,auth.401-type'], {
        OPSAPI_TOKEN: token,
        OPSAPI_ALLOW_SKIPS: 'true',
      }),
    ]);
    for (const run of [flag, env]) {
      expect(run.code, run.stdout + run.stderr).toBe(0);
      // Without --certify the verdict reads as the exit code: no red NOT CERTIFIED for a run that passed.
      expect(run.stdout).toMatch(
        /verdict: PASSED: no MUST check failed or errored; 1 of \d+ MUST checks ran; \d+ MUST checks were not selected/,
      );
      expect(run.stdout).not.toContain('CERTIFIED');
      expect(run.stdout).toMatch(/exit 0: no MUST check failed or errored \(1 of \d+ MUST checks ran\)/);
    }
  }, 60_000);

  it('never certifies a run --only narrowed: NOT CERTIFIED, exit 1, and the selection in every report', async () => {
    const files = ['selected.json', 'selected.xml', 'selected.html'].map((f) => join(dir, f));
    const args = ['conform', '--base-url', bare.url, '--token', token, '--certify', '--only', 'auth'];
    const run = await opsapi([...args, ...files.flatMap((f) => ['--report', f])]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const notSelected = allChecks().filter((c) => c.level === 'MUST' && !c.id.startsWith('auth.')).length;
    const verdict = `NOT CERTIFIED: ${notSelected} MUST checks were not selected`;
    expect(run.stdout).toContain(`certification: ${verdict}\n`);
    expect(run.stdout).toContain(`selection: --only auth: ${notSelected} of `);
    expect(run.stdout).toContain(`exit 1: --certify: ${notSelected} MUST check(s) not selected by --only/--skip`);
    expect(run.stdout.replaceAll('NOT CERTIFIED', '')).not.toContain('CERTIFIED');
    const [json, xml, html] = files.map((f) => readFileSync(f as string, 'utf8')) as [string, string, string];
    const report = JSON.parse(json) as Report;
    expect(report.certified).toBe(false);
    expect(report.verdict).toEqual({ label: 'NOT CERTIFIED', text: verdict, because: [verdict.slice(15)] });
    expect(report.selection).toMatchObject({ only: ['auth'], skip: [], notSelected: { MUST: notSelected } });
    expect(report.selection?.mustNotSelected).toHaveLength(notSelected);
    expect(xml).toContain(`<property name="verdict" value="${verdict}"/><property name="only" value="auth"/>`);
    expect(html).toContain('id="verdict">NOT CERTIFIED<');
    expect(html.replaceAll('NOT CERTIFIED', '')).not.toContain('CERTIFIED');
    expect(html).toMatch(/<dd id="selection">--only auth: \d+ of \d+ MUST/);
  }, 60_000);

  it('without --certify, reads PASSED for a narrowed run that passed, with what it left out', async () => {
    const file = join(dir, 'passed.html');
    const run = await opsapi(['conform', '--base-url', bare.url, '--token', token, '--only', 'auth', '--report', file]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /verdict: PASSED: no MUST check failed or errored; (\d+) of \1 MUST checks ran; \d+ MUST/,
    );
    expect(readFileSync(file, 'utf8')).toContain('<span class="verdict ok" id="verdict">PASSED</span>');
  }, 60_000);

  it('does not count checks left out by --only as skipped', async () => {
    const run = await opsapi(['conform', '--base-url', bare.url, '--token', token, '--only', 'lists.defaults']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('1 of 1 MUST checks ran');
  }, 60_000);
});

describe('runConformance without a credential', () => {
  let bare: RunningMock;
  let admin: RunningMock;
  beforeAll(async () => {
    [bare, admin] = await Promise.all([startMockServer({ port: 0, admin: false }), startMockServer({ port: 0 })]);
  });
  afterAll(async () => {
    await Promise.all([bare?.close(), admin?.close()]);
  });

  it('throws a NoCredentialError, a UsageError, naming the target', async () => {
    const error = await runConformance({ baseUrl: bare.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoCredentialError);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as NoCredentialError).target).toBe(bare.url);
  });

  it('treats a blank token as none', async () => {
    await expect(runConformance({ baseUrl: bare.url, token: '  ' })).rejects.toThrow(/the token given is empty/);
  });

  it('takes a token that ends in a line break (a secret read from a file), and refuses one broken inside, naming the option', async () => {
    const token = await admin.control.tenant('gate-newline').token();
    const report = await runConformance({ baseUrl: bare.url, token: `${token}\n`, only: ['lists.defaults'] });
    expect(report.exitCode).toBe(0);
    await expect(
      runConformance({ baseUrl: bare.url, token: `${token.slice(0, 10)}\n${token.slice(10)}` }),
    ).rejects.toThrow(/^--token: the value holds a character a header cannot carry/);
    await expect(runConformance({ baseUrl: bare.url, token, headers: { 'X-Trace': 'a\u0007b' } })).rejects.toThrow(
      /^--header X-Trace: /,
    );
  });

  it('says so when the admin API of a mock is turned off by useMockAdmin: false', async () => {
    await expect(runConformance({ baseUrl: admin.url, useMockAdmin: false })).rejects.toThrow(
      /its admin API is off: --no-mock-admin/,
    );
  });

  it('needs no credential against a mock with its admin API: it mints its own', async () => {
    const report = await runConformance({ baseUrl: admin.url, token: '', only: ['lists.defaults'] });
    expect(report.mockAdmin).toBe(true);
    expect(report.mustRan).toBe(1);
    expect(report.exitCode).toBe(0);
  });
});
