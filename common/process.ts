/**
 * One child-process helper for tests and benchmarks: start a command, wait for a pattern in its output, stop it
 * (SIGTERM, then SIGKILL after a bound), keep the tail of its output for diagnostics.
 */
import { spawn, type ChildProcess } from 'node:child_process';

/** How a child ended. */
export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface ChildOptions {
  readonly cwd?: string;
  /** Added to this process's environment. */
  readonly env?: NodeJS.ProcessEnv;
  /** Its name in error messages (default: the command). */
  readonly name?: string;
  /**
   * Its own process group (default true), so that stop() reaches the real process behind wrappers such as npx or
   * sh -c. False keeps it in ours: whoever kills our group (a test's timeout) takes it along.
   */
  readonly ownGroup?: boolean;
  /** Characters of output kept, the most recent (default 1 MiB). */
  readonly outputLimit?: number;
  /** SIGKILL it when this process exits while it still runs (default false). */
  readonly killOnExit?: boolean;
}

/** A started child process. */
export interface Child {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** The tail of its stdout and stderr, interleaved as they came. */
  output(): string;
  /** How it ended, null while it runs. */
  exitStatus(): ExitStatus | null;
  /** Resolves once it has ended. */
  readonly exited: Promise<ExitStatus>;
  /** The first match of `pattern` in its output; rejects (with the output's tail) when it ends first or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** SIGTERM, SIGKILL after `graceMs` (default 3000); then SIGKILL to what is left of its group. Resolves once it ended. */
  stop(graceMs?: number): Promise<ExitStatus>;
}

const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;
const DEFAULT_GRACE_MS = 3000;
/** Output after the exit event still arrives on the pipes: waiters hear of the end once they closed, or after this. */
const PIPE_DRAIN_MS = 250;
/** Output quoted in errors. */
const ERROR_TAIL = 4000;

type Signaller = (signal: NodeJS.Signals) => void;

/** Children still running, with the way to signal each (its group or itself). */
const live = new Map<Child, Signaller>();
const killedOnExit = new Set<Child>();
let exitHookInstalled = false;

function signaller(proc: ChildProcess, pid: number, ownGroup: boolean): Signaller {
  return (signal) => {
    try {
      if (ownGroup) process.kill(-pid, signal);
      else proc.kill(signal);
    } catch {
      try {
        proc.kill(signal);
      } catch {
        // Already gone.
      }
    }
  };
}

/** Spawns a command with its output collected; throws when it cannot be spawned (no pid). */
export function startChild(command: string, args: readonly string[], options: ChildOptions = {}): Child {
  const name = options.name ?? command;
  const ownGroup = options.ownGroup ?? true;
  const limit = options.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let child: Child | undefined;
  let status: ExitStatus | null = null;
  let ended = false;
  let out = '';
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  let settleExit: (s: ExitStatus) => void = () => undefined;
  const exited = new Promise<ExitStatus>((resolve) => (settleExit = resolve));
  const end = (s: ExitStatus) => {
    if (status) return;
    status = s;
    if (child) {
      live.delete(child);
      killedOnExit.delete(child);
    }
    settleExit(s);
    // Waiters learn of the end once the pipes closed (the last output read), bounded.
    const drained = setTimeout(markEnded, PIPE_DRAIN_MS);
    proc.once('close', () => {
      clearTimeout(drained);
      markEnded();
    });
  };
  const markEnded = () => {
    if (ended) return;
    ended = true;
    notify();
  };
  // Without a pid the spawn failed (and is reported by the throw below); later errors are failed kills: not an end.
  proc.on('error', () => undefined);
  if (proc.pid === undefined) throw new Error(`${name}: could not spawn ${command}`);
  const pid = proc.pid;
  const signal = signaller(proc, pid, ownGroup);
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > limit * 2) out = out.slice(-limit);
    notify();
  };
  proc.stdout?.on('data', onData);
  proc.stderr?.on('data', onData);
  proc.once('exit', (code, signal) => end({ code, signal }));

  let stopping: Promise<ExitStatus> | undefined;
  const tail = () => out.slice(-ERROR_TAIL);
  child = {
    name,
    child: proc,
    pid,
    output: () => out.slice(-limit),
    exitStatus: () => status,
    exited,
    waitFor: (pattern, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = out.match(pattern);
          if (found) {
            done();
            resolve(found);
          } else if (ended) {
            done();
            reject(
              new Error(`${name} exited (${describeExit(status)}) before printing ${String(pattern)}:\n${tail()}`),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name} did not print ${String(pattern)} within ${timeoutMs} ms:\n${tail()}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    stop: (graceMs = DEFAULT_GRACE_MS) => {
      stopping ??= (async () => {
        if (!status || ownGroup) signal('SIGTERM');
        const killer = setTimeout(() => signal('SIGKILL'), graceMs);
        const s = await exited;
        clearTimeout(killer);
        // Whatever the leader left behind in its group (a wrapper's children).
        if (ownGroup) {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // The group is empty.
          }
        }
        return s;
      })();
      return stopping;
    },
  };
  live.set(child, signal);
  if (options.killOnExit) {
    killedOnExit.add(child);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.on('exit', () => {
        for (const c of killedOnExit) live.get(c)?.('SIGKILL');
      });
    }
  }
  return child;
}

/** Stops every child still running (gracefully, bounded by `graceMs` each). */
export async function stopAll(graceMs?: number): Promise<void> {
  await Promise.all([...live.keys()].map((c) => c.stop(graceMs)));
}

/** Kills every child still running, synchronously (at process exit, on a signal). */
export function killAllSync(): void {
  for (const signal of live.values()) signal('SIGKILL');
  live.clear();
}

function describeExit(status: ExitStatus | null): string {
  if (!status) return 'still running';
  return status.signal ? `signal ${status.signal}` : `code ${String(status.code)}`;
}
