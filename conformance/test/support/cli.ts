import { fileURLToPath } from 'node:url';
import { startListening, type Started } from '../../../test/support/process.js';
import { type CliRun, opsapiNodeArgs, runOpsapi } from '../../../test/support/cli-command.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export type { CliRun };

/**
 * Runs `opsapi <args>` to completion (bounded by `timeoutMs`). `OPSAPI_*` variables of the outer environment are left
 * out, so a token exported in the shell cannot change what a test sees; `env` sets the ones a test means.
 */
export function opsapi(args: string[], env: Record<string, string> = {}, timeoutMs = 90_000): Promise<CliRun> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OPSAPI_')));
  return runOpsapi(args, { ...inherited, ...env }, timeoutMs);
}

/**
 * Starts `opsapi mock` on a port the OS picks as it binds (test/support/process.ts, `startListening`); the rate limit
 * is the default one the probe is sized for (300/1s).
 */
export function mockProcess(extra: string[] = []): Promise<{ process: Started; url: string }> {
  return startListening(
    process.execPath,
    opsapiNodeArgs(['mock', '--port', '0', '--rate-limit', '300/1s', '--quiet', ...extra]),
    { cwd: root, timeoutMs: 60_000 },
  );
}

/** The lines a run wrote on stderr, blank ones left out. */
export function stderrLines(run: CliRun): string[] {
  return run.stderr.split('\n').filter((l) => l.trim() !== '');
}
