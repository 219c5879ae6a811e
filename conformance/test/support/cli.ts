import { fileURLToPath } from 'node:url';
import { startProcess, type Started } from '../../../test/support/process.js';
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

const LISTENING = /http:\/\/127\.0\.0\.1:\d+/;

/**
 * Starts `opsapi mock` on a port the OS picks as it binds (`--port 0`, read back from its banner: a port found free
 * beforehand could be taken by another process first); the rate limit is the default one the probe is sized for.
 */
export async function mockProcess(extra: string[] = []): Promise<{ process: Started; url: string }> {
  const started = await startProcess(
    process.execPath,
    opsapiNodeArgs(['mock', '--port', '0', '--rate-limit', '300/1s', '--quiet', ...extra]),
    LISTENING,
    { cwd: root, timeoutMs: 60_000 },
  );
  return { process: started, url: LISTENING.exec(started.output())?.[0] ?? '' };
}

/** The lines a run wrote on stderr, blank ones left out. */
export function stderrLines(run: CliRun): string[] {
  return run.stderr.split('\n').filter((l) => l.trim() !== '');
}
