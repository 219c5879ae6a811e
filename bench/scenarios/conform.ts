import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { spawnChild } from '../children.js';
import { round } from '../stats.js';
import { ROOT, opsapiCommand, startOurs } from '../targets/index.js';
import type { Outcome, ScenarioDef } from './types.js';

/** The conformance runner's command; the scenario runs once it exists. */
const CONFORM_COMMAND = resolve(ROOT, 'cli/commands/conform.ts');

export const conformScenario: ScenarioDef = {
  name: 'conform',
  description:
    'wall time of `opsapi conform --base-url <mock> --allow-writes --webhooks` against a fresh local mock (default flags), run like our mock (see --cli)',
  async run(ctx): Promise<Outcome> {
    if (!existsSync(CONFORM_COMMAND)) return { skip: 'conformance runner not available' };
    if (ctx.settings.mode === 'quick' && !ctx.scenariosNamed)
      return { skip: 'not run in quick mode (name it with --scenarios conform)' };
    const ours = await startOurs({ flags: [], profileDir: ctx.profileDir });
    try {
      const t0 = performance.now();
      const [command, args] = opsapiCommand(['conform', '--base-url', ours.url, '--allow-writes', '--webhooks']);
      const child = spawnChild('conform', command, args, { cwd: ROOT });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        void child.stop(2000);
      }, ctx.settings.conformTimeoutS * 1000);
      const exitCode = await new Promise<number | null>((done) => {
        if (child.exited()) done(child.proc.exitCode);
        else child.proc.once('exit', (code) => done(code));
      });
      clearTimeout(timer);
      const wallS = (performance.now() - t0) / 1000;
      const notes: string[] = [];
      if (timedOut) notes.push(`stopped after ${ctx.settings.conformTimeoutS} s`);
      if (exitCode !== 0)
        notes.push(`the runner exited with ${String(exitCode)}; the tail of its output is in details.outputTail`);
      return {
        metrics: { wallS: round(wallS, 2), exitCode: exitCode, timedOut: timedOut ? 1 : 0 },
        details: exitCode === 0 ? {} : { outputTail: child.output().slice(-3000) },
        notes,
      };
    } finally {
      await ours.stop();
    }
  },
};
