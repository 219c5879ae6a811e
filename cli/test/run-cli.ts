import { fileURLToPath } from 'node:url';
import { type CliRun, runOpsapi } from '../../test/support/cli-command.js';

export { expectOneLineRefusal, stderrLines } from '../../test/support/cli-command.js';

/** The project root: the CLI runs from here, as `npx opsapi` does in a checkout. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type { CliRun };

/**
 * Runs `opsapi <args>` in a process of its own (the CLI compiled for the test run, see test/support/cli-command.ts)
 * from the project root to completion, killed after `timeoutMs`.
 */
export function opsapi(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runOpsapi(args, { ...process.env, ...options.env }, options.timeoutMs ?? 60_000);
}
