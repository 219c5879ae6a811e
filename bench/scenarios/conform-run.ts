import { spawnChild } from '../children.js';
import { ROOT, opsapiCommand } from '../targets/index.js';

/** How one `opsapi conform` child ended. */
interface ConformRun {
  wallS: number;
  exitCode: number | null;
  timedOut: boolean;
  /** Its output (stdout and stderr), for the notes of a run that did not exit 0. */
  output: string;
}

/**
 * Runs `opsapi conform <args>` as the bench runs our processes (`opsapiCommand`, see `--cli`), stopped after
 * `timeoutS`; the wall time is from spawn to exit, so it counts the runner's start as a user sees it.
 */
export async function runConform(args: readonly string[], timeoutS: number): Promise<ConformRun> {
  const t0 = performance.now();
  const [command, argv] = opsapiCommand(['conform', ...args]);
  const child = spawnChild('conform', command, argv, { cwd: ROOT });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void child.stop(2000);
  }, timeoutS * 1000);
  const exitCode = await new Promise<number | null>((done) => {
    if (child.exited()) done(child.proc.exitCode);
    else child.proc.once('exit', (code) => done(code));
  });
  clearTimeout(timer);
  return { wallS: (performance.now() - t0) / 1000, exitCode, timedOut, output: child.output() };
}
