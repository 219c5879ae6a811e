import { decisionsOf, type DecisionFile, type Decisions } from '../../spec/decisions/index.js';
import { withObservedDecisions } from '../../spec/decisions/publish.js';
import { ContractValidator } from '../../spec/validate.js';
import { contract } from './contract.js';

/**
 * The contract part of the rules' environment (`RuleEnv` of rules/types.ts, less its base path), named here because
 * the rules import this folder, not the other way round.
 */
interface JudgingContract {
  validator: ContractValidator;
  decisions?: Decisions;
}

/**
 * What the exchange rules judge by, for the runner and the proxy alike: the contract, or, given what a deployment
 * was observed to do (`--decisions`, `opsapi learn`), the contract adapted to those observations and the observed
 * values the SHOULD checks then expect.
 */
export function judgingContract(file: DecisionFile | undefined): JudgingContract {
  if (!file) return { validator: contract().validator };
  return {
    validator: new ContractValidator(withObservedDecisions(contract().document, file)),
    decisions: decisionsOf(file),
  };
}
