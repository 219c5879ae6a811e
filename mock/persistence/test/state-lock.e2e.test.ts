/**
 * One live mock per state file, with real `opsapi mock` processes: a second one on the same file refuses with one
 * line and exit 2 (it would interleave its journal with the first one's and lose acknowledged writes); a mock killed
 * with SIGKILL leaves no lock behind, so starting again at once works and finds every acknowledged write; a snapshot
 * that is valid JSON but mangled is refused the same way, never with a stack trace.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { expectOneLineRefusal, opsapiNodeArgs, runOpsapi } from '../../../test/support/cli-command.js';
import { startListening } from '../../../test/support/process.js';
import { adminClaims } from '../../auth/presets.js';
import { mintToken } from '../../auth/tokens.js';
import { DEFAULT_JWT_SECRET } from '../../options.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'opsapi-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Port 0: the address is read back from the banner (test/support/process.ts, `startListening`). */
const mockArgs = (file: string) => ['mock', '--port', '0', '--quiet', '--state', file];

async function createKey(base: string, token: string, name: string): Promise<string> {
  const res = await request(`${base}/v1/access/apiKeys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.statusCode).toBe(201);
  return ((await res.body.json()) as { key: string }).key;
}

async function keyWorks(base: string, key: string): Promise<boolean> {
  const res = await request(`${base}/v1/items/skus?pageSize=1`, { headers: { 'x-api-key': key } });
  await res.body.dump();
  return res.statusCode === 200;
}

describe('the lock of a state file (--state)', () => {
  it('refuses a second live mock on the same file; after a SIGKILL the file is usable again at once', async () => {
    const file = join(dir, 'locked.json');
    const token = await mintToken(DEFAULT_JWT_SECRET, adminClaims('lock-a'));
    const { process: first, url: base } = await startListening(process.execPath, opsapiNodeArgs(mockArgs(file)), {
      cwd: root,
      timeoutMs: 30_000,
    });
    let key: string;
    try {
      key = await createKey(base, token, 'before the second start');
      const second = await runOpsapi(mockArgs(file), process.env, 30_000);
      expectOneLineRefusal(second, 'mock', /locked\.json is in use by another mock \(pid \d+ on /);
      // The first mock was not disturbed: it still answers and its key still works.
      expect(await keyWorks(base, key)).toBe(true);
    } finally {
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
    }
    // The killed holder's lock file is still there, and stale: the next start takes it over at once.
    expect(existsSync(`${file}.lock`)).toBe(true);
    const again = await startListening(process.execPath, opsapiNodeArgs(mockArgs(file)), {
      cwd: root,
      timeoutMs: 30_000,
    });
    try {
      expect(await keyWorks(again.url, key)).toBe(true);
    } finally {
      await again.process.stop();
    }
    // A graceful stop gives the lock up.
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 90_000);

  it.each([
    { what: 'tenants that are not an object', snapshot: { tenants: 5 }, says: /mangled at \/tenants \(/ },
    {
      what: 'a record without its value',
      snapshot: { tenants: { acme: [{ entity: 'apiKey', id: 'k1' }] } },
      says: /mangled at \/tenants\/acme\/0\/after/,
    },
    {
      what: 'an API key whose key is a number',
      snapshot: {
        tenants: {
          acme: [
            {
              entity: 'apiKey',
              id: 'k1',
              after: { apiKey: { id: 'k1', key: 42 }, subject: 's', permissions: [], roles: [] },
            },
          ],
        },
      },
      says: /mangled at \/tenants\/acme\/0\/after\/apiKey\/key/,
    },
    {
      what: 'an unknown kind of entity',
      snapshot: { tenants: { acme: [{ entity: 'x', id: '1', after: null }] } },
      says: /\/entity/,
    },
  ])(
    'refuses a snapshot that is valid JSON but mangled ($what) with one line, exit 2',
    async ({ snapshot, says }) => {
      const file = join(dir, `mangled-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify({ format: 'opsapi-state', version: 1, seed: 1, skus: 200, ...snapshot }));
      const run = await runOpsapi(
        ['mock', '--port', '0', '--seed', '1', '--skus', '200', '--state', file],
        process.env,
        30_000,
      );
      expectOneLineRefusal(run, 'mock', says);
      expect(run.stderr).toContain(file);
      // Refused before anything was written or locked.
      expect(existsSync(`${file}.lock`)).toBe(false);
      expect(existsSync(`${file}.journal`)).toBe(false);
    },
    30_000,
  );
});
