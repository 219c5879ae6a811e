import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild } from '../../common/process.js';
import { startMock, type RunningMock } from '../../mock/server.js';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';
import { expectOneLineRefusal, opsapi, ROOT } from './run-cli.js';

const SECRET = 'shared-sandbox-jwt-secret-0123456789abcdef';
const KEY = 'shared-sandbox-admin-key-0123456789';

describe('opsapi mock on a non-loopback host (a shared sandbox)', () => {
  it.each([
    {
      what: 'with the default JWT secret',
      args: [],
      says: /refusing --host 0\.0\.0\.0 with the default --jwt-secret/,
    },
    {
      what: 'with a JWT secret shorter than 32 characters',
      args: ['--jwt-secret', 'too-short-jwt-secret', '--no-admin'],
      says: /refusing --host 0\.0\.0\.0 with a --jwt-secret of 20 characters: .*at least 32/,
    },
    {
      what: 'without an admin key',
      args: ['--jwt-secret', SECRET],
      says: /refusing --host 0\.0\.0\.0 without --admin-key: .*--no-admin/,
    },
    {
      what: 'with an admin key shorter than 16 characters',
      args: ['--jwt-secret', SECRET, '--admin-key', 'too-short'],
      says: /--admin-key is 9 characters; use at least 16/,
    },
  ])('refuses to start $what: one line, exit 2, never listening', async ({ args, says }) => {
    const run = await opsapi(['mock', '--host', '0.0.0.0', '--port', '0', ...args]);
    expectOneLineRefusal(run, 'mock', says);
    expect(run.stderr).not.toContain('too-short');
  });

  it('starts with --no-admin and a JWT secret of its own, its admin API off', async () => {
    const args = ['mock', '--host', '0.0.0.0', '--port', '0', '--no-admin', '--jwt-secret', SECRET];
    const child = startChild(process.execPath, opsapiNodeArgs(args), {
      cwd: ROOT,
      name: 'opsapi mock',
      killOnExit: true,
    });
    try {
      const url = (await child.waitFor(/opsapi mock listening on (http:\/\/\S+)/, 30_000))[1] ?? '';
      await child.waitFor(/admin API: +off/, 5_000);
      const health = await request(`${url}/__mock/health`);
      await health.body.dump();
      expect(health.statusCode).toBe(404);
    } finally {
      await child.stop();
    }
  });
});

describe('a shared mock guarded by an admin key, used by the kit', () => {
  let mock: RunningMock;

  beforeAll(async () => {
    mock = await startMock({ port: 0, rateLimit: null, jwtSecret: SECRET, adminKey: KEY });
  });

  afterAll(async () => {
    await mock?.close();
  });

  it('accepts a token opsapi token signed offline with the same secret (no admin call, no mock asked)', async () => {
    const run = await opsapi(['token', '--org', 'offline-org', '--admin', '--jwt-secret', SECRET]);
    expect(run.code, run.stderr).toBe(0);
    const res = await request(`${mock.url}/v1/items/skus?pageSize=1`, {
      headers: { authorization: `Bearer ${run.stdout.trim()}` },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(200);
  });

  it('lets opsapi conform --admin-key mint its tokens through the admin API and run', async () => {
    const run = await opsapi(['conform', '--base-url', mock.url, '--admin-key', KEY, '--only', 'permissions.403-code']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/PASS\s+MUST\s+permissions\.403-code/);
    expect(run.stdout).not.toContain(KEY);
  });

  it('has opsapi conform without the key say what is missing, in one line with exit 2', async () => {
    const run = await opsapi(['conform', '--base-url', mock.url, '--only', 'permissions.403-code']);
    expectOneLineRefusal(run, 'conform', /admin API needs a key .*: pass --admin-key \(or OPSAPI_ADMIN_KEY\)/);
  });
});
