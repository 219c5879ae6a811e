import { decisionsOf, type DecisionFile } from '../spec/decisions/index.js';
import { withObservedDecisions } from '../spec/decisions/publish.js';
import { ContractValidator } from '../spec/validate.js';
import { contract } from './contract.js';
import type { RuleEnv } from './rules/types.js';

/**
 * What the exchange rules judge by, for the runner and the proxy alike: the contract, or, given what a deployment
 * was observed to do (`--decisions`, `opsapi learn`), the contract adapted to those observations and the observed
 * values the SHOULD checks then expect.
 */
export function judgingContract(file: DecisionFile | undefined): Omit<RuleEnv, 'basePath'> {
  if (!file) return { validator: contract().validator };
  return {
    validator: new ContractValidator(withObservedDecisions(contract().document, file)),
    decisions: decisionsOf(file),
  };
}
