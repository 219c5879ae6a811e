import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../test/support/free-port.js';
export { freePort };

/** Most output kept per child (the tail), for diagnostics. */
const OUTPUT_LIMIT = 64 * 1024;

/** A child process started by the bench, in its own process group. */
export interface Child {
  readonly name: string;
  readonly proc: ChildProcess;
  readonly pid: number;
  /** The tail of its stdout and stderr. */
  output(): string;
  /** Whether it has exited. */
  exited(): boolean;
  /** Resolves with the first match of `pattern` in its output; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<Child>();

/**
 * Spawns a child in its own process group (so a tree, e.g. npx -> tsx -> node, is stopped as one) and
 * keeps reading its output (a child blocked on a full pipe would stall the load).
 */
export function spawnChild(name: string, command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Child {
  const proc = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  if (proc.pid === undefined) throw new Error(`${name}: could not spawn ${command}`);
  const pid = proc.pid;
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > OUTPUT_LIMIT * 2) out = out.slice(-OUTPUT_LIMIT);
    for (const l of listeners) l();
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  let hasExited = false;
  const exitPromise = new Promise<void>((resolve) => {
    proc.once('exit', () => {
      hasExited = true;
      live.delete(child);
      for (const l of listeners) l();
      resolve();
    });
    proc.once('error', () => {
      hasExited = true;
      live.delete(child);
      for (const l of listeners) l();
      resolve();
    });
  });
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        proc.kill(sig);
      } catch {
        /* already gone */
      }
    }
  };
  const child: Child = {
    name,
    proc,
    pid,
    output: () => out.slice(-OUTPUT_LIMIT),
    exited: () => hasExited,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) {
            done();
            resolve(m);
          } else if (hasExited) {
            done();
            reject(new Error(`${name} exited (code ${String(proc.exitCode)}) before printing ${String(pattern)}:\n${out.slice(-4000)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} did not print ${String(pattern)} within ${timeoutMs} ms:\n${out.slice(-4000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    stop: async (graceMs = 5000) => {
      if (hasExited) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exitPromise;
      clearTimeout(timer);
      // Whatever the leader left behind in its group.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* group empty */
      }
    },
  };
  live.add(child);
  return child;
}

/** Stops every child still running (gracefully, bounded). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((c) => c.stop()));
}

/** Kills every child still running, synchronously (process exit, signals). */
export function killAllSync(): void {
  for (const c of live) {
    try {
      process.kill(-c.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  live.clear();
}


/** Resident set size of a process in MB, from `/proc/<pid>/status` (null where unavailable). */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** CPU seconds (user + system) a process has used so far, from `/proc/<pid>/stat` (null where unavailable). */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks / 100 : null;
  } catch {
    return null;
  }
}
