import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';

/** The project root: the CLI runs from here, as `npx opsapi` does in a checkout. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a finished CLI run left. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `opsapi <args>` in a process of its own (the CLI compiled for the test run, see test/support/cli-command.ts)
 * from the project root to completion, killed after `timeoutMs`.
 */
export function opsapi(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, opsapiNodeArgs(args), {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`opsapi ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The lines a run wrote to stderr (without the final empty one). */
export function stderrLines(run: CliRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}
