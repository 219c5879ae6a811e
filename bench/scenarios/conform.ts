import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { round } from '../stats.js';
import { ROOT, startOurs } from '../targets/index.js';
import { runConform } from './conform-run.js';
import type { Outcome, ScenarioDef } from './types.js';

/** The conformance runner's command; the scenario runs once it exists. */
export const CONFORM_COMMAND = resolve(ROOT, 'cli/commands/conform.ts');

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
      const run = await runConform(
        ['--base-url', ours.url, '--allow-writes', '--webhooks'],
        ctx.settings.conformTimeoutS,
      );
      const notes: string[] = [];
      if (run.timedOut) notes.push(`stopped after ${ctx.settings.conformTimeoutS} s`);
      if (run.exitCode !== 0)
        notes.push(`the runner exited with ${String(run.exitCode)}; the tail of its output is in details.outputTail`);
      return {
        metrics: { wallS: round(run.wallS, 2), exitCode: run.exitCode, timedOut: run.timedOut ? 1 : 0 },
        details: run.exitCode === 0 ? {} : { outputTail: run.output.slice(-3000) },
        notes,
      };
    } finally {
      await ours.stop();
    }
  },
};
