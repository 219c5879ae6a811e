import type { CheckDef, RunContext } from '../context.js';
import { canRun } from './run-check.js';
import { AGGREGATE_RULES } from '../rules/index.js';
import { SCHEMA_RULES } from '../rules/schema.js';

/*
 * Work the runner does beside its phases, in time they leave unused: while the state phase waits for webhooks the
 * tenant's rate limit refills for nothing, and while the main phase waits for its pace the process is idle.
 */

/** Starts the prefetches of the selected checks that can run, each function once; `signal` ends them. */
export function prefetch(run: RunContext, selected: CheckDef[], signal: AbortSignal): void {
  const started = new Set<CheckDef['prefetch']>();
  for (const def of selected) {
    if (!def.prefetch || started.has(def.prefetch) || !canRun(run, def)) continue;
    started.add(def.prefetch);
    def.prefetch(run, signal).catch(() => undefined);
  }
}

/**
 * Starts judging each exchange with the rules of the selected aggregate checks as it is recorded, whenever the main
 * phase waits for its pace (time the aggregate phase would otherwise spend after it); returns the stop (called before
 * the aggregate phase), or undefined.
 */
export function judgeAhead(run: RunContext, selected: CheckDef[]): (() => Promise<void>) | undefined {
  const ids = new Set(selected.map((c) => c.id));
  const rules = [...AGGREGATE_RULES, ...SCHEMA_RULES].filter((rule) => ids.has(rule.id));
  if (rules.length === 0) return undefined;
  return run.judgments.ahead(rules, run.client.exchanges, {
    unknownFields: SCHEMA_RULES.some((rule) => ids.has(rule.id)),
    spare: () => run.client.pacing(),
  });
}
