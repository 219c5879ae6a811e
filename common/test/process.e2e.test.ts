import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startChild, type Child } from '../process.js';
import { startProcess } from '../../test/support/process.js';

/** A tiny `node -e` child. */
const node = (script: string, options: Parameters<typeof startChild>[2] = {}) =>
  track(startChild(process.execPath, ['-e', script], options));

const children: Child[] = [];
const track = (child: Child) => {
  children.push(child);
  return child;
};
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop(500)));
});

/** Whether a process of that pid still runs (a zombie waiting to be reaped by its new parent does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Keeps a child running without output until it is stopped. */
const IDLE = 'setInterval(() => undefined, 1000);';

describe('the common child-process helper', () => {
  it('starts a process and resolves once stdout or stderr prints the ready pattern', async () => {
    const child = track(
      await startProcess(
        process.execPath,
        ['-e', `console.log('starting'); console.error('listening on http://127.0.0.1:1234'); ${IDLE}`],
        /listening on (http:\S+)/,
      ),
    );
    const [, url] = await child.waitFor(/listening on (http:\S+)/, 1000);
    expect(url).toBe('http://127.0.0.1:1234');
    expect(child.output()).toContain('starting\n');
    expect(child.exitStatus()).toBeNull();
  });

  it('rejects a wait when the process ends first, with its exit code and output', async () => {
    const child = node("console.log('no luck'); process.exit(3);");
    await expect(child.waitFor(/ready/, 10_000)).rejects.toThrow(
      /exited \(code 3\) before printing \/ready\/:\nno luck/,
    );
    expect(await child.exited).toEqual({ code: 3, signal: null });
  });

  it('rejects a wait that times out, quoting the output so far', async () => {
    const child = node(`console.log('still warming up'); ${IDLE}`);
    await child.waitFor(/warming/, 5000);
    await expect(child.waitFor(/ready/, 50)).rejects.toThrow(/did not print \/ready\/ within 50 ms:\nstill warming up/);
  });

  it('startProcess stops a process that never becomes ready and rejects', async () => {
    await expect(
      startProcess(process.execPath, ['-e', IDLE], /ready/, { timeoutMs: 50, name: 'the idler' }),
    ).rejects.toThrow(/the idler did not print/);
  });

  it('stops a process with SIGTERM', async () => {
    const child = node(
      `process.on('SIGTERM', () => { console.log('bye'); process.exit(0); }); console.log('up'); ${IDLE}`,
    );
    await child.waitFor(/up/, 5000);
    expect(await child.stop()).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('bye');
  });

  it('kills a process that ignores SIGTERM once the grace period is over', async () => {
    const child = node(`process.on('SIGTERM', () => console.log('ignored')); console.log('up'); ${IDLE}`);
    await child.waitFor(/up/, 5000);
    expect(await child.stop(100)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('stops the whole process group: a wrapper and the process it started', async () => {
    const grandchild = `require('node:child_process').spawn(process.execPath, ['-e', 'console.log(process.pid); ${IDLE}'], { stdio: ['ignore', 'inherit', 'inherit'] }); ${IDLE}`;
    const wrapper = node(grandchild);
    const [, pid] = await wrapper.waitFor(/^(\d+)$/m, 5000);
    expect(alive(Number(pid))).toBe(true);
    await wrapper.stop(500);
    await expect.poll(() => alive(Number(pid)), { timeout: 5000 }).toBe(false);
  });

  it('can stay in our process group and still be stopped', async () => {
    const child = node(`console.log('up'); ${IDLE}`, { ownGroup: false });
    await child.waitFor(/up/, 5000);
    expect((await child.stop()).signal).toBe('SIGTERM');
  });

  it('keeps only the tail of a long output', async () => {
    const child = node("process.stdout.write('x'.repeat(5000) + 'END\\n');", { outputLimit: 100 });
    await child.exited;
    await child.waitFor(/END/, 5000);
    expect(child.output().length).toBeLessThanOrEqual(100);
    expect(child.output().endsWith('END\n')).toBe(true);
  });

  it('throws when the command cannot be spawned', () => {
    expect(() => startChild('/nonexistent/command', [], { name: 'ghost' })).toThrow(
      'ghost: could not spawn /nonexistent/command',
    );
  });
});
