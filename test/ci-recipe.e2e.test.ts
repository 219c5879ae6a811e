import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClaims, limitedClaims } from '../index.js';
import { mintToken } from '../index.js';
import { startMockServer, type RunningMock } from '../index.js';
import { copyCheckout } from './support/checkout.js';
import { closedPort } from '../common/closed-port.js';
import {
  fencedBlockAfter,
  runJob,
  workflowJobs,
  type ExpressionContext,
  type WorkflowJob,
  type WorkflowStep,
} from './support/workflow.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const recipe = fencedBlockAfter(
  readFileSync(join(root, 'README.md'), 'utf8'),
  'Gating a deployment in CI (GitHub Actions)',
  'yaml',
);
const job: WorkflowJob = Object.values(workflowJobs(recipe ?? ''))[0] ?? { steps: [] };
const checkoutStep = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
const isInstall = (s: WorkflowStep) => /\bnpm ci\b/.test(s.run ?? '');
const workspace = mkdtempSync(join(tmpdir(), 'opsapi-ci-recipe-'));

/**
 * What a fresh runner has: a PATH with Node and npm, a home, and the npm cache. The cache is the one `npm ci` of this
 * repository used (npm_config_cache is inherited, so a fresh cache folder given to that `npm ci` is the one used here):
 * that `npm ci` left in it every tarball and registry answer of the lock file, so the recipe's `npm ci` runs with
 * npm_config_offline and this test needs no network (see provideInstalledKit for a cache `npm ci` did not fill).
 * Nothing else of the test's environment leaks into the steps.
 */
function runnerEnv(): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'npm_config_cache'];
  const env: NodeJS.ProcessEnv = Object.fromEntries(
    keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]),
  );
  return {
    ...env,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_OS: 'Linux',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
  };
}

/**
 * When the recipe's `npm ci` failed because the npm cache cannot answer offline, gives the checkout this repository's
 * node_modules instead (a symbolic link), with a printed reason, and says whether it did; under CI=true that is a failure.
 *
 * Why: the lock file records no `resolved` URLs, so `npm ci` asks the registry for each package's metadata, and npm's
 * cache only answers with metadata fetched with the same Accept header. `npm ci` caches the abbreviated metadata it
 * needs (so after `npm ci`, on a fresh machine and in CI, the recipe's install runs as written), but `npm install`
 * caches full metadata, so a cache filled by `npm install` on a developer's machine cannot serve it (ENOTCACHED).
 */
function provideInstalledKit(installOutput: string): boolean {
  const reason =
    'the npm cache cannot serve an offline `npm ci` of the lock file (ENOTCACHED: it was not filled by `npm ci`)';
  if (!installOutput.includes('ENOTCACHED')) return false;
  if (process.env.CI === 'true')
    throw new Error(`${reason}, but CI=true requires the recipe's install step to run as written`);
  console.warn(`${reason}; the recipe's install step is replaced by a link to this repository's node_modules`);
  const nodeModules = join(workspace, String(checkoutStep?.with?.path), 'node_modules');
  // The failed install's partial node_modules is inside the temporary workspace; the link is never given to `npm ci`.
  rmSync(nodeModules, { recursive: true, force: true });
  symlinkSync(join(root, 'node_modules'), nodeModules, 'dir');
  return true;
}

/** Report files the recipe's publishing steps (`uses:` with report_paths / path) read. */
function publishedReports(): string[] {
  return job.steps.flatMap((s) =>
    [s.with?.report_paths, s.with?.path].filter((p): p is string => typeof p === 'string' && s !== checkoutStep),
  );
}

describe('the CI recipe in the README', () => {
  let mock: RunningMock;
  let secrets: Record<string, string>;

  beforeAll(async () => {
    // A target like a staging deployment: no /__mock admin API, its own signing secret, tokens handed to the job as secrets.
    const jwtSecret = randomBytes(24).toString('hex');
    mock = await startMockServer({ port: 0, admin: false, jwtSecret });
    secrets = {
      OPSAPI_TOKEN: await mintToken(jwtSecret, adminClaims('ci-gate')),
      OPSAPI_LIMITED_TOKEN: await mintToken(jwtSecret, limitedClaims('ci-gate')),
      OPSAPI_OTHER_TENANT_TOKEN: await mintToken(jwtSecret, adminClaims('ci-gate-other')),
    };
    // What actions/checkout does: the kit, as this working tree would be committed, into the path the recipe names.
    copyCheckout(root, join(workspace, String(checkoutStep?.with?.path)));
  });

  afterAll(async () => {
    await mock?.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it('checks the kit out at a pinned commit into a path, and never looks the name opsapi up in a registry', () => {
    expect(recipe, 'the README has the yaml block').not.toBeNull();
    expect(checkoutStep?.with?.repository).toEqual(expect.any(String));
    expect(String(checkoutStep?.with?.ref)).toMatch(/^[0-9a-f]{40}$/);
    expect(checkoutStep?.with?.path).toEqual(expect.any(String));
    const scripts = job.steps.map((s) => s.run ?? '').join('\n');
    expect(scripts).not.toMatch(/\bnpx\b|\bnpm\s+(?:install|i|exec|x)\s+opsapi\b/);
    expect(scripts).toContain(`node ${String(checkoutStep?.with?.path)}/bin/opsapi.js conform`);
  });

  it('installs the kit, passes against a faithful target and writes the reports its publishing steps read', async () => {
    const context: ExpressionContext = { secrets, vars: { OPSAPI_BASE_URL: mock.url } };
    const options = { workspace, context, baseEnv: runnerEnv(), stepTimeoutMs: 240_000 };
    const install = await runJob(job, { ...options, select: isInstall });
    const installLog = install.steps
      .map((s) => `--- ${s.name}: exit ${s.exitCode} after ${s.durationMs} ms\n${s.output}`)
      .join('\n');
    expect(install.exitCode === 0 || provideInstalledKit(installLog), installLog).toBe(true);
    const outcome = await runJob(job, { ...options, select: (s) => !isInstall(s) });
    const log = [...install.steps, ...outcome.steps]
      .map((s) => `--- ${s.name}: exit ${s.exitCode} after ${s.durationMs} ms\n${s.output}`)
      .join('\n');
    expect(outcome.exitCode, log).toBe(0);
    expect(
      [...install.steps, ...outcome.steps].map((s) => s.name),
      'every shell step ran',
    ).toEqual(job.steps.filter((s) => s.run !== undefined).map((s) => s.name));
    expect(publishedReports().length).toBeGreaterThan(0);
    for (const report of publishedReports()) expect(existsSync(join(workspace, report)), `${report} exists`).toBe(true);
    expect(readFileSync(join(workspace, 'conformance.xml'), 'utf8')).toContain('<testsuites');
  }, 420_000);

  it('fails with exit 2 and an error annotation when the target is unreachable', async () => {
    for (const report of publishedReports()) rmSync(join(workspace, report), { force: true });
    const unreachable = await closedPort();
    const context: ExpressionContext = { secrets, vars: { OPSAPI_BASE_URL: `http://127.0.0.1:${unreachable}` } };
    // The same job again with only the target changed. Its install step is left out: its result does not depend on the
    // target, the kit installed by the run before is still in the workspace, and it is most of this file's time.
    const outcome = await runJob(job, {
      workspace,
      context,
      baseEnv: runnerEnv(),
      stepTimeoutMs: 120_000,
      select: (s) => !isInstall(s),
    });
    const log = outcome.steps
      .map((s) => `--- ${s.name}: exit ${s.exitCode} after ${s.durationMs} ms\n${s.output}`)
      .join('\n');
    expect(outcome.exitCode, log).toBe(2);
    expect(log).toMatch(/^::error::/m);
    expect(log).toContain('target unreachable');
  }, 180_000);
});
