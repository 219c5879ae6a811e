import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../test/support/free-port.js';
export { freePort };

/** The project root (the soak runs the mock from the sources, like `npm start`). */
export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));


/** The mock running as a child process. */
export interface MockProcess {
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
 * Starts `node --import tsx cli/opsapi.ts mock --port P --rate-limit off --quiet` and resolves once it prints its
 * URL. The child is the node process itself, so its pid is the mock's (for RSS). Killed if the soak exits first.
 */
export async function startMockProcess(timeoutMs = 60_000): Promise<MockProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'cli/opsapi.ts', 'mock', '--port', String(port), '--rate-limit', 'off', '--quiet'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn the mock');
  let out = '';
  let exit: { code: number | null; signal: string | null } | null = null;
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > OUTPUT_LIMIT * 2) out = out.slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  const killOnExit = () => {
    if (!exit) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mock did not start within ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const check = () => {
      const m = /http:\/\/[^\s]+:\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`the mock exited before it was ready (${JSON.stringify(exit)}):\n${out}`));
    });
  });

  return {
    url,
    pid,
    rss: () => {
      try {
        const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return m ? Number(m[1]) * 1024 : null;
      } catch {
        return null;
      }
    },
    exited: () => exit,
    output: () => out,
    stop: async (graceMs = 15_000) => {
      if (!exit) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', killOnExit);
      return exit?.code ?? null;
    },
  };
}
