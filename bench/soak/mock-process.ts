import { fileURLToPath } from 'node:url';
import { startChild } from '../../common/process.js';
import { rssMb } from '../children.js';
import { opsapiEntry } from '../targets/index.js';

/** The project root (the soak runs the mock from the sources, like `npm start`). */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The mock running as a child process. */
interface MockProcess {
  readonly url: string;
  readonly pid: number;
  /** Resident set size of the child now, bytes (VmRSS of /proc/<pid>/status); null where /proc is not available. */
  rss(): number | null;
  /** Whether it exited (on its own: it should not). */
  exited(): { code: number | null; signal: string | null } | null;
  /** The tail of its output. */
  output(): string;
  /** SIGTERM (graceful shutdown), SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const OUTPUT_LIMIT = 32 * 1024;

/**
 * Starts `node --import tsx cli/opsapi.ts mock --port 0 --rate-limit off --quiet` (or `node <cli> mock ...`) and resolves once it prints its
 * URL. The child is the node process itself, so its pid is the mock's (for RSS). Killed if the soak exits first;
 * kept in the soak's process group (inferred) so that whoever kills the soak's group (its test's timeout) kills it too.
 */
export async function startMockProcess(cli: string | null, timeoutMs = 60_000): Promise<MockProcess> {
  const args = [
    '--expose-gc',
    ...opsapiEntry(cli),
    'mock',
    // 0: the OS picks a free port at bind time (one found free beforehand can be taken by another process first).
    '--port',
    '0',
    '--rate-limit',
    'off',
    '--quiet',
  ];
  const child = startChild(process.execPath, args, {
    cwd: PROJECT_ROOT,
    name: 'the mock',
    ownGroup: false,
    outputLimit: OUTPUT_LIMIT,
    killOnExit: true,
  });
  let url: string;
  try {
    [url] = await child.waitFor(/http:\/\/[^\s]+:\d+/, timeoutMs);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return {
    url,
    pid: child.pid,
    rss: () => {
      const mb = rssMb(child.pid);
      return mb === null ? null : mb * 1024 * 1024;
    },
    exited: () => child.exitStatus(),
    output: child.output,
    stop: async (graceMs = 15_000) => (await child.stop(graceMs)).code,
  };
}
