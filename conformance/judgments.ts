import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { Exchange } from './wire/client.js';
import { bodyOf } from './rules/schema.js';
import type { ExchangeRule, Finding, RuleEnv } from './rules/index.js';

/**
 * What the aggregate checks conclude about each exchange of a run: the findings of an exchange rule, and the members
 * of its body the contract does not name. Both are pure functions of the exchange (and the run's rules environment),
 * so each is worked out once, and may be worked out early: `ahead` judges the exchanges already recorded while the
 * checks that send traffic mostly wait for their pace, so the aggregate phase finds the work (and the contract's
 * compiled validators) done.
 */
export class Judgments {
  private readonly findings = new Map<ExchangeRule, WeakMap<Exchange, readonly Finding[]>>();
  private readonly unknown = new WeakMap<Exchange, readonly string[]>();

  constructor(private readonly env: RuleEnv) {}

  /** The findings of a rule on an exchange the rule applies to. */
  of(rule: ExchangeRule, ex: Exchange): readonly Finding[] {
    let byExchange = this.findings.get(rule);
    if (!byExchange) {
      byExchange = new WeakMap();
      this.findings.set(rule, byExchange);
    }
    let found = byExchange.get(ex);
    if (!found) {
      found = rule.judge(ex, this.env);
      byExchange.set(ex, found);
    }
    return found;
  }

  /** Paths of the members of an exchange's body that the contract does not name (empty outside the contract). */
  unknownFields(ex: Exchange): readonly string[] {
    let paths = this.unknown.get(ex);
    if (!paths) {
      paths =
        ex.operationId === undefined
          ? []
          : this.env.validator.unknownFields(ex.operationId, { status: ex.status, body: bodyOf(ex) });
      this.unknown.set(ex, paths);
    }
    return paths;
  }

  /**
   * Judges, in the background, every exchange recorded in `exchanges` (now and later) with the rules that apply to it,
   * one exchange per turn of the event loop and only while `spare()` says the process has time to spare (its requests
   * wait for their pace), until the returned stop is called.
   */
  ahead(
    rules: readonly ExchangeRule[],
    exchanges: readonly Exchange[],
    options: { unknownFields: boolean; spare: () => boolean },
  ): () => Promise<void> {
    let stopped = false;
    let next = 0;
    const loop = (async () => {
      while (!stopped) {
        const ex = exchanges[next];
        if (!ex || !options.spare()) {
          await sleep(10);
          continue;
        }
        next++;
        try {
          for (const rule of rules) if (rule.applies(ex)) this.of(rule, ex);
          if (options.unknownFields) this.unknownFields(ex);
        } catch {
          // Left to the aggregate phase, whose check then reports what went wrong.
        }
        await nextTurn();
      }
    })();
    return async () => {
      stopped = true;
      await loop;
    };
  }
}
