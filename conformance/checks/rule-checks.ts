import type { Exchange } from '../wire/client.js';
import type { CheckContext, CheckDef } from '../context.js';
import { type ExchangeRule, ruleIdentity } from '../rules/index.js';

/**
 * A check of the aggregate phase that applies one exchange rule (conformance/rules/) to exchanges of the run:
 * every exchange the rule applies to is a case exercised, every finding a failure.
 */
export function ruleCheck(rule: ExchangeRule, exchanges: (c: CheckContext) => Promise<readonly Exchange[]>): CheckDef {
  return {
    ...ruleIdentity(rule),
    phase: 'aggregate',
    async run(c) {
      for (const ex of await exchanges(c)) {
        if (!rule.applies(ex)) continue;
        c.exercised(`${ex.method} ${ex.path} ${ex.status}`);
        // Judged once per run, often before this phase began (judgments.ts).
        for (const finding of c.run.judgments.of(rule, ex))
          c.fail(finding.message, ex, finding.expected, finding.actual);
      }
    },
  };
}

/** Every exchange of the run that addressed a contract operation. */
export async function contractExchanges(c: CheckContext): Promise<readonly Exchange[]> {
  return c.run.client.exchanges.filter((ex) => ex.operationId !== undefined);
}
