import { spawn, type ChildProcess } from 'node:child_process';
export { freePort } from './free-port.js';


/** A child process started for a test, with its collected output. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts a command and resolves once its output matches `ready` (bounded by `timeoutMs`);
 * rejects with the output collected so far when it exits or times out first.
 */
export function startProcess(command: string, args: string[], ready: RegExp, options: { timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Started> {
  // Its own process group, so stop() reaches the real process behind wrappers such as npx.
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      const signalGroup = (signal: NodeJS.Signals) => {
        try {
          if (child.pid) process.kill(-child.pid, signal);
        } catch {
          child.kill(signal);
        }
      };
      signalGroup('SIGTERM');
      setTimeout(() => signalGroup('SIGKILL'), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} did not become ready in ${options.timeoutMs ?? 30000} ms:\n${out}`));
    }, options.timeoutMs ?? 30000);
    let isReady = false;
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!isReady && ready.test(out)) {
        isReady = true;
        clearTimeout(timer);
        resolve({ child, output: () => out, stop });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!isReady) reject(new Error(`${command} exited with ${code} before it was ready:\n${out}`));
    });
  });
}
