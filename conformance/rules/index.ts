import { ENVELOPE_RULES, SORT_RULES, UNKNOWN_COLUMN_RULES } from './lists.js';
import { PAIR_RULES } from './pairs.js';
import { PERMISSION_RULES } from './permissions.js';
import { AUTH_RULES, PROBLEM_RULES } from './problems.js';
import { SCHEMA_RULES } from './schema.js';
import type { ExchangeRule } from './types.js';
import { checkFacts } from '../contract/check-facts.js';
import { contract } from '../contract/contract.js';
import { levelOfFacts } from '../contract/facts.js';

export type { ExchangeRule, Finding, RuleEnv } from './types.js';
export { ruleIdentity } from './types.js';

/**
 * Every rule that judges one exchange by itself, in report order. `opsapi proxy` applies all of them to the traffic
 * it forwards; the runner's aggregate checks apply the problem, pair, page and schema rules to its own traffic (the
 * auth, permission and filter rules have active checks of the same id there, built on the same judges).
 */
const ALL_RULES: readonly ExchangeRule[] = [
  ...AUTH_RULES,
  ...PERMISSION_RULES,
  ...PROBLEM_RULES,
  ...PAIR_RULES,
  ...ENVELOPE_RULES,
  ...SORT_RULES,
  ...UNKNOWN_COLUMN_RULES,
  ...SCHEMA_RULES,
];

/** The facts of every check and rule, worked out once for both lists below. */
const DOCUMENT = contract().document;
const FACTS = checkFacts(DOCUMENT);

/** Each rule with its level derived from the facts its check rests on (conformance/contract/check-facts.ts). */
function derived(rules: readonly ExchangeRule[]): ExchangeRule[] {
  return rules.map((rule) => ({ ...rule, level: levelOfFacts(DOCUMENT, FACTS[rule.id] ?? missing(rule.id)) }));
}

function missing(id: string): never {
  throw new Error(`rule ${id} names no fact of the contract (conformance/contract/check-facts.ts)`);
}

export const EXCHANGE_RULES: readonly ExchangeRule[] = derived(ALL_RULES);

/** The rules the runner applies to every exchange of a run as checks of the aggregate phase. */
export const AGGREGATE_RULES: readonly ExchangeRule[] = derived([
  ...PROBLEM_RULES,
  ...PAIR_RULES,
  ...ENVELOPE_RULES,
  ...SORT_RULES,
]);
