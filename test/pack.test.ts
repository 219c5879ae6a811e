import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startProcess } from './support/process.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'opsapi-pack-'));

describe('the published package', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs into a tarball that installs elsewhere and whose opsapi bin runs with Node alone', async () => {
    // `npm pack` runs `prepack` (the TypeScript build): the tarball carries compiled JavaScript.
    execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const listing = execFileSync('tar', ['-tzf', join(work, tarball!)], { encoding: 'utf8' });
    expect(listing).toContain('package/dist/cli/opsapi.js');
    expect(listing).toContain('package/spec/openapi.json');
    expect(listing.split('\n').filter((l) => l.endsWith('.ts') && !l.endsWith('.d.ts'))).toEqual([]);

    const app = join(work, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    // Offline: every dependency comes from the npm cache filled by `npm ci`; tests use no network.
    const install = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--omit=dev', join(work, tarball!)], { cwd: app, encoding: 'utf8', timeout: 240_000 });
    expect(install.status, install.stderr).toBe(0);

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
  }, 420_000);
});
