import { execFile } from 'node:child_process';

/** How a command ended: its exit code, or the signal that killed it, and what it wrote. */
export interface CommandRun {
  /** Exit code; null when killed or when it could not start. */
  code: number | null;
  /** The signal that ended it (SIGKILL after `timeoutMs`), else null. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Set when it did not exit by itself: it could not start, or it was killed. */
  error?: Error;
}

/**
 * Runs a command to its end without blocking the test worker (a synchronous child process, npm or tsc for seconds,
 * starves the worker's connection to vitest on a loaded machine). Bounded: killed with SIGKILL after `timeoutMs`.
 */
export function runCommand(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CommandRun> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      {
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        ...(options.env !== undefined ? { env: options.env } : {}),
        timeout: options.timeoutMs ?? 120_000,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        // An exit status is a number in `error.code`; a failed start has a string there (ENOENT), a kill has none.
        const status = (error as { code?: unknown } | null)?.code;
        const code = error ? (typeof status === 'number' ? status : null) : 0;
        resolve({ code, signal: child.signalCode, stdout, stderr, ...(error && code === null ? { error } : {}) });
      },
    );
  });
}
