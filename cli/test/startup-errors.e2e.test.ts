import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLineRefusal, opsapi } from './run-cli.js';

/** What a non-loopback --host needs before its address is even tried (mock/shared-mode.ts): a secret, no admin API. */
const SHARED = ['--jwt-secret', 'startup-errors-jwt-secret-0123456789', '--no-admin'];

describe('opsapi mock with a --host, --port or --state it cannot use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-startup-'));
  let taken: Server;
  let takenPort = 0;

  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    takenPort = typeof address === 'object' && address ? address.port : 0;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    // Binding an address that is not this machine's fails locally with EADDRNOTAVAIL: no packet leaves.
    {
      what: 'an address that is not this machine (10.99.99.99)',
      args: ['--host', '10.99.99.99', ...SHARED],
      says: /10\.99\.99\.99 is not an address of this machine \(EADDRNOTAVAIL\)/,
    },
    {
      what: 'a name that never resolves (nonexistent.invalid)',
      args: ['--host', 'nonexistent.invalid', ...SHARED],
      says: /nonexistent\.invalid does not resolve/,
    },
    {
      what: 'a state file in a directory that does not exist',
      args: ['--state', '/nonexistent/dir/x.json'],
      says: /--state \/nonexistent\/dir\/x\.json: the directory \/nonexistent\/dir does not exist/,
    },
    { what: 'a state file that is a directory', args: ['--state', tmpdir()], says: /is a directory/ },
  ])('refuses $what in one line and exits 2', async ({ args, says }) => {
    expectOneLineRefusal(await opsapi(['mock', '--port', '0', ...args]), 'mock', says);
  });

  it('refuses a port already in use in one line and exits 2', async () => {
    expectOneLineRefusal(await opsapi(['mock', '--port', String(takenPort)]), 'mock', /already in use/);
  });

  it('writes no state file when it cannot listen', async () => {
    const state = join(dir, 'state.json');
    expectOneLineRefusal(
      await opsapi(['mock', '--port', '0', '--host', '10.99.99.99', ...SHARED, '--state', state]),
      'mock',
      /EADDRNOTAVAIL/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('opsapi spec with an --out it cannot write', () => {
  it.each([
    {
      what: 'a directory that does not exist',
      out: '/nonexistent/x.json',
      says: /--out \/nonexistent\/x\.json: the directory \/nonexistent does not exist/,
    },
    { what: 'an existing directory', out: tmpdir(), says: /is a directory/ },
    { what: 'an empty name', out: '', says: /--out needs a file name/ },
  ])('refuses $what in one line and exits 2', async ({ out, says }) => {
    expectOneLineRefusal(await opsapi(['spec', '--out', out]), 'spec', says);
  });
});
