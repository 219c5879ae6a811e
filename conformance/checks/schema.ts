import type { CheckContext, CheckDef } from '../context.js';
import type { ExchangeRule } from '../rules/index.js';
import { ENVELOPE_RULES, SORT_RULES } from '../rules/lists.js';
import { SCHEMA_RULES, bodyOf } from '../rules/schema.js';
import { contractExchanges, ruleCheck } from './rule-checks.js';
import { UnknownFieldLines } from './unknown-info.js';

/** Members the contract does not name, in the responses a rule judged, as information lines of its check. */
async function informUnknownFields(c: CheckContext, rule: ExchangeRule): Promise<void> {
  const unknown = new UnknownFieldLines(c.run.ruleEnv.validator);
  for (const ex of await contractExchanges(c))
    if (rule.applies(ex))
      unknown.add(ex.operationId as string, ex.status, bodyOf(ex), c.run.judgments.unknownFields(ex));
  // The context keeps the first lines and counts them all.
  for (const line of unknown.ordered()) c.inform(line);
}

/** Every response of the run against the contract's schemas (unknown fields as information), and every page. */
export function schemaChecks(): CheckDef[] {
  const schema = SCHEMA_RULES.map((rule): CheckDef => {
    const check = ruleCheck(rule, contractExchanges);
    return {
      ...check,
      async run(c) {
        await check.run(c);
        await informUnknownFields(c, rule);
      },
    };
  });
  return [...schema, ...[...ENVELOPE_RULES, ...SORT_RULES].map((rule) => ruleCheck(rule, contractExchanges))];
}
