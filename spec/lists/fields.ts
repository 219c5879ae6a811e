import { OPERATORS_BY_TYPE, type FieldType, type FilterOperator } from './operators.js';

/**
 * One field of a list endpoint: its JSON property, its type, and whether `filterBy` and `sortBy` accept it.
 * Field names are matched case-insensitively (`name`, `Name`, `CreatedAt` and `createdAt` are the same field; inferred).
 */
export interface ListField {
  /** The JSON property name of the list item (camelCase). */
  readonly name: string;
  readonly type: FieldType;
  readonly filterable: boolean;
  readonly sortable: boolean;
  /** Whether the property can be null (IsNull/IsNotNull are meaningful). */
  readonly nullable: boolean;
  /** Operators `filterBy` accepts on this field. */
  readonly operators: readonly FilterOperator[];
  /** Allowed values of an `enum` field. */
  readonly enumValues?: readonly string[];
}

/** The field table of one list endpoint. */
export type ListFieldTable = readonly ListField[];

/** Declares a list field; operators default to all those of its type. */
export function listField(
  name: string,
  type: FieldType,
  options: {
    filterable?: boolean;
    sortable?: boolean;
    nullable?: boolean;
    operators?: readonly FilterOperator[];
    enumValues?: readonly string[];
  } = {},
): ListField {
  return {
    name,
    type,
    filterable: options.filterable ?? true,
    sortable: options.sortable ?? true,
    nullable: options.nullable ?? false,
    operators: options.operators ?? OPERATORS_BY_TYPE[type],
    ...(options.enumValues ? { enumValues: options.enumValues } : {}),
  };
}
