import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineNpmEnv, writeOfflineConsumer } from './support/offline-consumer.js';
import { freePort, startProcess } from './support/process.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'opsapi-pack-'));

describe('the published package', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs into a tarball that installs with an empty npm cache and no network, and whose opsapi bin runs with Node alone', async () => {
    // `npm pack` runs `prepack` (the TypeScript build): the tarball carries compiled JavaScript.
    const packCache = mkdtempSync(join(work, 'pack-cache-'));
    const pack = spawnSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, env: offlineNpmEnv(packCache), encoding: 'utf8', timeout: 180_000 });
    expect(pack.status, `${pack.stdout}\n${pack.stderr}`).toBe(0);
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const listing = execFileSync('tar', ['-tzf', join(work, tarball!)], { encoding: 'utf8' });
    expect(listing).toContain('package/dist/cli/opsapi.js');
    expect(listing).toContain('package/spec/openapi.json');
    expect(listing.split('\n').filter((l) => l.endsWith('.ts') && !l.endsWith('.d.ts'))).toEqual([]);

    // A fresh machine: the install sees an npm cache that is empty and may not use the network (see writeOfflineConsumer).
    const app = join(work, 'app');
    writeOfflineConsumer(root, join(work, tarball!), app);
    const emptyCache = join(work, 'install-cache');
    mkdirSync(emptyCache);
    const install = spawnSync('npm', ['ci', '--omit=dev'], { cwd: app, env: offlineNpmEnv(emptyCache), encoding: 'utf8', timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    // Every dependency the tarball's own package.json declares, and theirs, is installed at a version that satisfies it.
    const tree = spawnSync('npm', ['ls', '--omit=dev', '--all'], { cwd: app, env: offlineNpmEnv(emptyCache), encoding: 'utf8', timeout: 60_000 });
    expect(tree.status, `${tree.stdout}\n${tree.stderr}`).toBe(0);

    const bin = join(app, 'node_modules', '.bin', 'opsapi');
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(spawnSync(join(app, 'node_modules', '.bin', 'tsx'), ['--version']).error, 'no TypeScript runner is installed').toBeDefined();

    const port = await freePort();
    const mock = await startProcess(bin, ['mock', '--port', String(port), '--quiet'], /http:\/\/127\.0\.0\.1:\d+/, { cwd: app, timeoutMs: 30_000 });
    try {
      const res = await request(`http://127.0.0.1:${port}/__mock/health`);
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toEqual({ status: 'ok' });
    } finally {
      await mock.stop();
    }
  }, 300_000);
});
