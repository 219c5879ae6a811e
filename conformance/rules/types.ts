import type { Decisions } from '../../spec/decisions/index.js';
import type { ContractValidator } from '../../spec/validate.js';
import type { Exchange } from '../wire/client.js';
import type { Family, Level } from '../types.js';

/** One thing wrong with an exchange. */
export interface Finding {
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * What a rule knows beyond the exchange: the base path of the target (problem `instance`), the validator of the
 * contract it judges by (the contract itself, or the contract adapted to observed decisions), and those decisions.
 */
export interface RuleEnv {
  basePath: string;
  validator: ContractValidator;
  decisions?: Decisions;
}

/**
 * A rule that judges one exchange by itself, with nothing but the request and the answer: the runner's aggregate
 * checks apply it to every exchange of a run, and `opsapi proxy` to every exchange it forwards, so both judge traffic
 * by the same rules. `id` is the id of the check it belongs to (its result in either report).
 */
export interface ExchangeRule {
  id: string;
  title: string;
  family: Family;
  clause: string;
  level: Level;
  /** Whether the rule judges this exchange (an exchange it judges is a case exercised). */
  applies(ex: Exchange): boolean;
  judge(ex: Exchange, env: RuleEnv): Finding[];
}

/** What names a rule in a report (a check of the runner, a line of the proxy's report). */
export function ruleIdentity(rule: ExchangeRule): Pick<ExchangeRule, 'id' | 'title' | 'family' | 'clause' | 'level'> {
  return { id: rule.id, title: rule.title, family: rule.family, clause: rule.clause, level: rule.level };
}

/** `METHOD target -> status`, how findings name an exchange. */
export function where(ex: Exchange): string {
  return `${ex.method} ${ex.target} -> ${ex.status}`;
}

/** Collects findings: `check(condition, ...)` adds one when the condition does not hold. */
export class Findings {
  readonly list: Finding[] = [];
  check(condition: boolean, message: string, expected?: string, actual?: string): boolean {
    if (!condition)
      this.list.push({
        message,
        ...(expected !== undefined ? { expected } : {}),
        ...(actual !== undefined ? { actual } : {}),
      });
    return condition;
  }
}
