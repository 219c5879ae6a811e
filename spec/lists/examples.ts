import type { ListFieldTable } from './fields.js';
import { FILTER_OPERATORS, type FilterOperator } from './operators.js';

/** The `filterBy` and `sortBy` examples of one list operation. */
export interface ListExamples {
  readonly filterBy: string;
  readonly sortBy: string;
}

const CONDITION = /^\s*\(*\s*([A-Za-z_][A-Za-z0-9_.]*)\[([A-Za-z]+)\]/;

/**
 * Examples of a list operation, checked against its field table when the contract is built: every condition
 * names a filterable field with an operator that field accepts, every sort segment a sortable field. A wrong
 * example is a programming error of the contract (it throws), so the document never shows an example the
 * operation rejects. Conditions are split on `&&`/`||`; examples use no quoted values.
 */
export function listExamples(fields: ListFieldTable, examples: ListExamples): ListExamples {
  const find = (name: string) => fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  for (const condition of examples.filterBy.split(/&&|\|\|/)) {
    const match = CONDITION.exec(condition);
    if (!match) throw new Error(`filterBy example '${examples.filterBy}': '${condition}' is not Field[Operator]value`);
    const [, name = '', operator = ''] = match;
    const field = find(name);
    if (!field?.filterable) throw new Error(`filterBy example '${examples.filterBy}': '${name}' is not filterable`);
    if (
      !FILTER_OPERATORS.includes(operator as FilterOperator) ||
      !field.operators.includes(operator as FilterOperator)
    ) {
      throw new Error(`filterBy example '${examples.filterBy}': '${name}' does not accept ${operator}`);
    }
  }
  for (const segment of examples.sortBy.split(',')) {
    const name = segment.trim().replace(/^-/, '');
    if (!find(name)?.sortable) throw new Error(`sortBy example '${examples.sortBy}': '${name}' is not sortable`);
  }
  return examples;
}
