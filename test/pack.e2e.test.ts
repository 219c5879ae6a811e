import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineNpmEnv, writeOfflineConsumer } from './support/offline-consumer.js';
import { runCommand } from './support/run-command.js';
import { ensureFreshDist } from './support/fresh-dist.js';
import { startListening } from './support/process.js';

const root = fileURLToPath(new URL('../', import.meta.url));

const work = mkdtempSync(join(tmpdir(), 'opsapi-pack-'));

/** The client-suite scenario of the Testing API (test/testing-api/), run here unchanged against the installed package. */
const SCENARIO_FILES = ['scenario.mjs', 'run-scenario.mjs'];

describe('the published package', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs into a tarball that installs with an empty npm cache and no network, and whose opsapi bin and opsapi/testing run with Node alone', async () => {
    // The tarball carries the compiled JavaScript of dist/. `prepare` built it on `npm ci`; it is built again only when
    // a source is newer (test/support/fresh-dist.ts), and `npm pack` skips its own build (~6 s of CPU) with
    // --ignore-scripts.
    await ensureFreshDist(root);
    const packCache = mkdtempSync(join(work, 'pack-cache-'));
    const pack = await runCommand('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], {
      cwd: root,
      env: offlineNpmEnv(packCache),
      timeoutMs: 180_000,
    });
    expect(pack.code, `${pack.stdout}\n${pack.stderr}`).toBe(0);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const listing = (await runCommand('tar', ['-tzf', join(work, tarball!)])).stdout;
    expect(listing).toContain('package/dist/cli/opsapi.js');
    expect(listing).toContain('package/dist/testing.js');
    expect(listing).toContain('package/spec/openapi.json');
    expect(listing).toContain('package/conformance/data-file.schema.json');
    expect(listing.split('\n').filter((l) => l.endsWith('.ts') && !l.endsWith('.d.ts'))).toEqual([]);

    // A fresh machine: the install sees an npm cache that is empty and may not use the network (see writeOfflineConsumer).
    const app = join(work, 'app');
    writeOfflineConsumer(root, join(work, tarball!), app, { omitOptional: true });
    const emptyCache = join(work, 'install-cache');
    mkdirSync(emptyCache);
    // Without optional dependencies too: tsx, which runs the sources of a checkout, is one, and the package needs none.
    const install = await runCommand('npm', ['ci', '--omit=dev', '--omit=optional'], {
      cwd: app,
      env: offlineNpmEnv(emptyCache),
      timeoutMs: 120_000,
    });
    expect(install.code, install.stderr).toBe(0);
    // Every dependency the tarball's own package.json declares, and theirs, is installed at a version that satisfies it.
    const tree = await runCommand('npm', ['ls', '--omit=dev', '--omit=optional', '--all'], {
      cwd: app,
      env: offlineNpmEnv(emptyCache),
      timeoutMs: 60_000,
    });
    expect(tree.code, `${tree.stdout}\n${tree.stderr}`).toBe(0);

    const bin = join(app, 'node_modules', '.bin', 'opsapi');
    const version = await runCommand(bin, ['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(
      (await runCommand(join(app, 'node_modules', '.bin', 'tsx'), ['--version'])).error,
      'no TypeScript runner is installed',
    ).toBeDefined();

    const { process: mock, url } = await startListening(bin, ['mock', '--port', '0', '--quiet'], {
      cwd: app,
      timeoutMs: 30_000,
    });
    try {
      const res = await request(`${url}/__mock/health`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ status: 'ok' });
    } finally {
      await mock.stop();
    }

    // The same scenario file the repository runs under vitest and against dist/: `opsapi/testing` by its name, with
    // Node alone, from the installed tarball; it must exit by itself.
    for (const file of SCENARIO_FILES) copyFileSync(join(root, 'test', 'testing-api', file), join(app, file));
    const suite = await runCommand(process.execPath, ['run-scenario.mjs'], { cwd: app, timeoutMs: 60_000 });
    expect(suite.error, `killed: the process did not exit by itself\n${suite.stderr}`).toBeUndefined();
    expect(suite.code, suite.stderr).toBe(0);
    expect(JSON.parse(suite.stdout)).toEqual({
      summary: { distinctUrls: true, listed: 2, delivered: { eventName: 'Items.Sku.Created', verified: true } },
      resolved: expect.stringMatching(/node_modules\/opsapi\/dist\/testing\.js$/),
    });
  }, 300_000);
});
