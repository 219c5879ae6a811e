import {
  codeStatusId,
  decided,
  type Decisions,
  type DecisionValues,
  type LearnedListField,
} from '../../spec/decisions/index.js';
import type { ListField } from '../../spec/lists/fields.js';
import type { OperationDef } from '../../spec/operations/index.js';

/** What a check reads decisions from: its run (only the rule environment of it, so this module imports no run). */
type RunContext = { readonly ruleEnv: RuleEnv };

/** What a rule reads decisions from (the rules' environment, `rules/types.ts`, has this member). */
type RuleEnv = { readonly decisions?: Decisions | undefined };

/**
 * The value a run expects at a decision point: the one observed at the real deployment when the run was given its
 * decisions (`opsapi conform --decisions`), else the contract's inferred value. Checks of such points stay SHOULD.
 * The point ids and the type of each kind's value are in spec/decisions/kinds.ts; which check compares which point
 * is in conformance/test/support/should-map.ts.
 */
export function expected<K extends keyof DecisionValues>(run: RunContext, id: string, inferred: DecisionValues[K]) {
  return decided<K>(run.ruleEnv.decisions, id, inferred);
}

/** The same for an exchange rule, which is given the rule environment rather than the run (runner and proxy alike). */
export function expectedIn<K extends keyof DecisionValues>(env: RuleEnv, id: string, inferred: DecisionValues[K]) {
  return decided<K>(env.decisions, id, inferred);
}

/** The status a run expects for a catalog code (`code-status:<CODE>`), `inferred` when it was not observed. */
export function expectedStatus(run: RunContext | RuleEnv, code: string, inferred: number): number {
  const env = 'ruleEnv' in run ? run.ruleEnv : run;
  return decided<'code-status'>(env.decisions, codeStatusId(code), inferred);
}

/** A learned field as the contract's tables write fields (`filterBy` and `sortBy` take it as `query`). */
function asListField(f: LearnedListField): ListField & { query: string } {
  return {
    name: f.name,
    query: f.query,
    type: f.type,
    filterable: f.operators.length > 0,
    sortable: f.sortable,
    nullable: false,
    operators: [...f.operators],
  };
}

/**
 * The field table a run expects of a list (`list-fields:<op>`): the fields the deployment was observed to filter and
 * sort by, with their operators and the names `filterBy` takes, or the contract's table (each field taken under its
 * own name) when none was observed.
 */
export function expectedListFields(run: RunContext, op: OperationDef): (ListField & { query: string })[] {
  const learned = run.ruleEnv.decisions?.get(`list-fields:${op.operationId}`) as LearnedListField[] | undefined;
  if (learned) return learned.map(asListField);
  const table = op.list?.filterAndSort ? op.list.fields : [];
  return table.map((f) => ({ ...f, query: f.name }));
}

/**
 * The members the records of an operation were observed to carry (`record-fields:<op>`), or undefined when none
 * were observed (the contract's schema then says which members a record has).
 */
export function observedMembers(run: RunContext | RuleEnv, operationId: string): Set<string> | undefined {
  const env = 'ruleEnv' in run ? run.ruleEnv : run;
  const shape = env.decisions?.get(`record-fields:${operationId}`) as DecisionValues['record-fields'] | undefined;
  return shape ? new Set(shape.fields.map((f) => f.name)) : undefined;
}
