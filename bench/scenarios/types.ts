import type { ScenarioName } from '../config.js';
import type { OkResult } from '../results.js';
import type { Context } from './context.js';

/** What a scenario returns: its numbers, or why it did not run. */
export type Outcome = { skip: string } | Pick<OkResult, 'metrics' | 'targets' | 'details' | 'notes'>;

export interface ScenarioDef {
  name: ScenarioName;
  description: string;
  run(ctx: Context): Promise<Outcome>;
}
