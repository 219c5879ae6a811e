import { type Child, startChild } from '../../common/process.js';

/** A child process a test started (common/process.ts). */
export type Started = Child;

/** How to start it: startChild's options, and how long its ready line may take. */
type StartOptions = NonNullable<Parameters<typeof startChild>[2]> & { readonly timeoutMs?: number };

/** Starts a command and resolves once its output matches `ready` (default timeout 30 s); stops it and rejects otherwise. */
export async function startProcess(
  command: string,
  args: readonly string[],
  ready: RegExp,
  options: StartOptions = {},
): Promise<Started> {
  const child = startChild(command, args, options);
  try {
    await child.waitFor(ready, options.timeoutMs ?? 30_000);
    return child;
  } catch (error) {
    await child.stop();
    throw error;
  }
}
