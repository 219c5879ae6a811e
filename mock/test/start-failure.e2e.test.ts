/**
 * startMock when it cannot listen: it rejects with the system error and closes what it built first (the app, the
 * delivery engine, the state file), so a failed start leaks nothing into the process.
 */
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMock } from '../server.js';

const dir = mkdtempSync(join(tmpdir(), 'opsapi-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Descriptors of this process open on a path (Linux: /proc/self/fd); null where the platform cannot tell. */
function openDescriptorsOn(path: string): number | null {
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return null;
  }
  let count = 0;
  for (const fd of fds) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // The descriptor closed while listing (readdir's own one): not ours.
    }
  }
  return count;
}

describe('startMock on a port already taken', () => {
  it('rejects with EADDRINUSE and leaves the state file closed', async () => {
    const taken = await startMock({ port: 0 });
    try {
      const port = Number(new URL(taken.url).port);
      const stateFile = join(dir, 'state.json');
      await expect(startMock({ port, stateFile })).rejects.toMatchObject({ code: 'EADDRINUSE' });
      const open = openDescriptorsOn(`${stateFile}.journal`);
      if (open !== null) expect(open).toBe(0);
      // Closed cleanly: the next start on a free port restores from the same file.
      const next = await startMock({ port: 0, stateFile });
      expect(next.restored).toMatchObject({ tenants: 0, tornTail: false });
      await next.close();
    } finally {
      await taken.close();
    }
  });
});
