import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The arguments of `node` that run `opsapi <args>`: the CLI compiled for this test run by the e2e layer's set-up
 * (test/support/e2e-setup.ts), or the sources through tsx's loader when a test runs without that set-up.
 */
export function opsapiNodeArgs(args: readonly string[]): string[] {
  const compiled = inject('opsapiCli');
  return compiled ? [compiled, ...args] : ['--import', 'tsx', join(root, 'cli/opsapi.ts'), ...args];
}

/** What a finished CLI run left. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `opsapi <args>` from the project root with exactly `env`, to completion; killed (and rejected) after `timeoutMs`. */
export function runOpsapi(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, opsapiNodeArgs(args), { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** A refusal of the CLI: exit 2, one line on stderr naming the command, no stack trace, nothing on stdout (no banner). */
export function expectOneLineRefusal(run: CliRun, command: string, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = stderrLines(run);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^opsapi ${command}: `));
  expect(lines[0]).toMatch(says);
  expect(run.stderr).not.toContain('    at ');
  expect(run.stdout).toBe('');
}
