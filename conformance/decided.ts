import { decided, type DecisionValues } from '../spec/decisions/index.js';
import type { RunContext } from './context.js';

/**
 * The value a run expects at a decision point: the one observed at the real deployment when the run was given its
 * decisions (`opsapi conform --decisions`), else the contract's inferred value. Checks of such points stay SHOULD.
 */
export function expected<K extends keyof DecisionValues>(run: RunContext, id: string, inferred: DecisionValues[K]) {
  return decided<K>(run.ruleEnv.decisions, id, inferred);
}
