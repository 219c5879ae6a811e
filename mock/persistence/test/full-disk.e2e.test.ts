/**
 * A real `opsapi mock` whose state file lives on a small file system that fills up: the writes it cannot make durable
 * are answered 503 (not acknowledged), the journal stays loadable, writes are acknowledged again once space returns,
 * and a restart after a SIGKILL finds every acknowledged write. The small file system is a 512 KB tmpfs, which only
 * root may mount: where mounting is not permitted the test is skipped (the same faults are injected without it in
 * ./state-file.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeSync, openSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { opsapiNodeArgs } from '../../../test/support/cli-command.js';
import { startListening } from '../../../test/support/process.js';
import { adminClaims } from '../../auth/presets.js';
import { mintToken } from '../../auth/tokens.js';
import { DEFAULT_JWT_SECRET } from '../../options.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const mountPoint = mkdtempSync(join(tmpdir(), 'opsapi-small-fs-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', mountPoint]).status === 0;
afterAll(() => {
  if (mounted) spawnSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the file system with one file until it refuses more (bounded: at most 1 MB of 4 KB writes). */
function fill(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 120);
  try {
    for (let i = 0; i < 256; i++) writeSync(fd, block);
    throw new Error('the small file system did not fill up');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

async function createKey(base: string, token: string, name: string) {
  const res = await request(`${base}/v1/access/apiKeys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const body = (await res.body.json()) as Record<string, unknown>;
  return { status: res.statusCode, type: res.headers['content-type'], retryAfter: res.headers['retry-after'], body };
}

async function keyWorks(base: string, key: string): Promise<boolean> {
  const res = await request(`${base}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key } });
  await res.body.dump();
  return res.statusCode === 200;
}

describe('a state file on a disk that fills up', () => {
  it.skipIf(!mounted)(
    'answers 503 for the writes it cannot keep, goes on once space returns, and loses no acknowledged write',
    async () => {
      const file = join(mountPoint, 'state.json');
      const filler = join(mountPoint, 'filler');
      const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('full-disk'));
      const args = opsapiNodeArgs(['mock', '--port', '0', '--rate-limit', 'off', '--quiet', '--state', file]);
      let { process: proc, url: base } = await startListening(process.execPath, args, { cwd: root, timeoutMs: 30_000 });
      const acknowledged: string[] = [];
      try {
        for (let i = 0; i < 3; i++) {
          const created = await createKey(base, token, `before ${i}`);
          expect(created.status).toBe(201);
          acknowledged.push(created.body.key as string);
        }
        fill(filler);
        // The journal's last page may still have room for a few lines: writes until the first refusal (at most 300).
        let refused: Awaited<ReturnType<typeof createKey>> | undefined;
        for (let i = 0; i < 300 && !refused; i++) {
          const created = await createKey(base, token, `while full ${i}`);
          if (created.status === 201) acknowledged.push(created.body.key as string);
          else refused = created;
        }
        expect(refused?.status).toBe(503);
        expect(refused?.type).toMatch(/^application\/problem\+json/);
        expect(refused?.retryAfter).toBe('5');
        expect(refused?.body).toMatchObject({ status: 503, instance: 'POST /v1/access/apiKeys' });
        expect(refused?.body.key).toBeUndefined();
        expect((await createKey(base, token, 'still full')).status).toBe(503);

        unlinkSync(filler);
        const after = await createKey(base, token, 'space again');
        expect(after.status).toBe(201);
        acknowledged.push(after.body.key as string);
      } finally {
        proc.child.kill('SIGKILL');
        await new Promise((resolve) => proc.child.once('exit', resolve));
      }

      ({ process: proc, url: base } = await startListening(process.execPath, args, { cwd: root, timeoutMs: 30_000 }));
      try {
        for (const key of acknowledged)
          expect(await keyWorks(base, key), `key ${acknowledged.indexOf(key)}`).toBe(true);
      } finally {
        await proc.stop();
      }
    },
    60_000,
  );
});
