/**
 * The lock of a state file, judged from what a starter finds in `FILE.lock`: a live holder on this host (this very
 * process) keeps it; a dead one (a pid that exited) or another host's holder that stopped touching it loses it at once;
 * another host's fresh lock is kept. Real processes, real files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateLock } from '../state-lock.js';
import { StateFileError } from '../../store/records.js';

const dir = mkdtempSync(join(tmpdir(), 'opsapi-state-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const freshState = () => join(dir, `state-${n++}.json`);

/** Writes a lock as a holder would, `ageS` seconds old. */
function plantLock(state: string, holder: Record<string, unknown>, ageS = 0): void {
  const path = `${state}.lock`;
  writeFileSync(path, `${JSON.stringify({ start: null, since: 'then', ...holder })}\n`);
  const at = new Date(Date.now() - ageS * 1000);
  utimesSync(path, at, at);
}

const holderPid = (state: string) => (JSON.parse(readFileSync(`${state}.lock`, 'utf8')) as { pid: number }).pid;

describe('StateLock', () => {
  it('is refused while a live process holds it, and free once released', () => {
    const state = freshState();
    const lock = StateLock.acquire(state);
    expect(holderPid(state)).toBe(process.pid);
    expect(() => StateLock.acquire(state)).toThrow(StateFileError);
    expect(() => StateLock.acquire(state)).toThrow(new RegExp(`is in use by another mock \\(pid ${process.pid} on `));
    lock.release();
    expect(existsSync(`${state}.lock`)).toBe(false);
    StateLock.acquire(state).release();
  });

  it('takes over at once the lock of a process of this host that no longer runs', () => {
    const state = freshState();
    const exited = spawnSync('/bin/sh', ['-c', ':']);
    expect(exited.status).toBe(0);
    plantLock(state, { pid: exited.pid, host: hostname() });
    const lock = StateLock.acquire(state);
    expect(holderPid(state)).toBe(process.pid);
    lock.release();
  });

  // Only where /proc tells a process's start time; elsewhere a live pid is taken for the holder.
  it.runIf(existsSync('/proc/self/stat'))(
    'takes over the lock of a live pid whose process started at another time (the pid was recycled)',
    () => {
      const state = freshState();
      plantLock(state, { pid: process.pid, host: hostname(), start: '1' });
      const lock = StateLock.acquire(state);
      expect(JSON.parse(readFileSync(`${state}.lock`, 'utf8')).start).not.toBe('1');
      lock.release();
    },
  );

  it("keeps another host's lock while it is touched, and takes it over once it is not", () => {
    const state = freshState();
    plantLock(state, { pid: 1, host: 'another-host.example' }, 5);
    expect(() => StateLock.acquire(state)).toThrow(/pid 1 on another-host\.example/);
    plantLock(state, { pid: 1, host: 'another-host.example' }, 120);
    const lock = StateLock.acquire(state);
    expect(holderPid(state)).toBe(process.pid);
    lock.release();
  });

  it('takes over an unreadable lock file once it is older than a starter takes to write one', () => {
    const state = freshState();
    writeFileSync(`${state}.lock`, 'garbage');
    expect(() => StateLock.acquire(state)).toThrow(/a mock that is starting/);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${state}.lock`, old, old);
    StateLock.acquire(state).release();
  });
});
