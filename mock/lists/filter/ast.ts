import type { FilterOperator } from '../../../spec/lists/operators.js';

/**
 * Syntax tree of a `filterBy` expression. Produced by `parseFilter` (syntax only: field names are not resolved,
 * values are not typed yet) and turned into a predicate by `compileFilterPlan`.
 */

/** `Field[Operator]value`. `value` is null for IsNull/IsNotNull; `position` is the 0-based offset of the field name. */
export interface ConditionNode {
  readonly kind: 'condition';
  readonly field: string;
  readonly operator: FilterOperator;
  readonly value: string | null;
  readonly position: number;
}

/** All children must match (`&&`). Always has at least two children. */
export interface AndNode {
  readonly kind: 'and';
  readonly children: readonly FilterAst[];
}

/** At least one child must match (`||`). Always has at least two children. */
export interface OrNode {
  readonly kind: 'or';
  readonly children: readonly FilterAst[];
}

export type FilterAst = ConditionNode | AndNode | OrNode;
