import { type Child, startChild } from '../../common/process.js';

/** A child process a test started (common/process.ts). */
export type Started = Child;

/** How to start it: startChild's options, and how long its ready line may take. */
type StartOptions = NonNullable<Parameters<typeof startChild>[2]> & { readonly timeoutMs?: number };

/** Starts a command and resolves once its output matches `ready`, with the match; stops it and rejects otherwise. */
async function startMatching(
  command: string,
  args: readonly string[],
  ready: RegExp,
  options: StartOptions,
): Promise<[Started, RegExpMatchArray]> {
  const child = startChild(command, args, options);
  try {
    return [child, await child.waitFor(ready, options.timeoutMs ?? 30_000)];
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Starts a command and resolves once its output matches `ready` (default timeout 30 s); stops it and rejects otherwise. */
export async function startProcess(
  command: string,
  args: readonly string[],
  ready: RegExp,
  options: StartOptions = {},
): Promise<Started> {
  return (await startMatching(command, args, ready, options))[0];
}

/** The loopback address the kit's servers print once they listen (the mock's banner, the proxy's first line). */
const LOOPBACK_URL = /http:\/\/127\.0\.0\.1:\d+/;

/**
 * Starts a server of the kit given `--port 0` and resolves with it and the address it printed: the OS picks a free
 * port as it binds, where a port found free beforehand could be taken by another process of the suite first.
 */
export async function startListening(
  command: string,
  args: readonly string[],
  options: StartOptions = {},
): Promise<{ process: Started; url: string }> {
  const [process, [url]] = await startMatching(command, args, LOOPBACK_URL, options);
  return { process, url };
}
