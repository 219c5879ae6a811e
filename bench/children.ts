import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startChild, stopAll as stopAllChildren } from '../common/process.js';
export { killAllSync } from '../common/process.js';

/** Most output kept per child (the tail), for diagnostics. */
const OUTPUT_LIMIT = 64 * 1024;

/** A child process started by the bench, in its own process group (the bench's view of common/process.ts). */
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
  /** SIGTERM to the group, SIGKILL after `graceMs` (default 5000); resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Spawns a child in its own process group (so a tree, e.g. npx -> tsx -> node, is stopped as one) and keeps reading
 * its output (a child blocked on a full pipe would stall the load). Throws when it cannot be spawned.
 */
export function spawnChild(
  name: string,
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Child {
  const child = startChild(command, args, { ...options, name, outputLimit: OUTPUT_LIMIT });
  return {
    name,
    proc: child.child,
    pid: child.pid,
    output: child.output,
    exited: () => child.exitStatus() !== null,
    waitFor: child.waitFor,
    stop: async (graceMs = 5000) => {
      await child.stop(graceMs);
    },
  };
}

/** Stops every child still running (SIGKILL after 5 s each). */
export const stopAll = (): Promise<void> => stopAllChildren(5000);

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
