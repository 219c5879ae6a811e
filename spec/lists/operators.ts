/**
 * The filter operators of the reference (Endpoints / List and search endpoints / Filter operators).
 * All 14 are documented; their exact semantics beyond one line each are inferred (see `OPERATOR_SEMANTICS`).
 */
export const FILTER_OPERATORS = [
  'Contains',
  'Equals',
  'StartsWith',
  'EndsWith',
  'IsNull',
  'IsNotNull',
  'Gt',
  'Gte',
  'Lt',
  'Lte',
  'IsAfter',
  'IsOnOrAfter',
  'IsBefore',
  'IsOnOrBefore',
] as const;

/** One filter operator name, as written between brackets in `Field[Operator]value`. */
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operators that take no value (`Field[IsNull]`). */
export const VALUELESS_OPERATORS: readonly FilterOperator[] = ['IsNull', 'IsNotNull'];

/** The type of a list field decides which operators apply to it and how values are parsed. */
export type FieldType = 'string' | 'number' | 'date' | 'boolean' | 'enum';

/** Operators allowed per field type (inferred: the reference does not say which field supports which operator). */
export const OPERATORS_BY_TYPE: Readonly<Record<FieldType, readonly FilterOperator[]>> = {
  string: ['Contains', 'Equals', 'StartsWith', 'EndsWith', 'IsNull', 'IsNotNull'],
  enum: ['Equals', 'IsNull', 'IsNotNull'],
  number: ['Equals', 'Gt', 'Gte', 'Lt', 'Lte', 'IsNull', 'IsNotNull'],
  date: [
    'Equals',
    'Gt',
    'Gte',
    'Lt',
    'Lte',
    'IsAfter',
    'IsOnOrAfter',
    'IsBefore',
    'IsOnOrBefore',
    'IsNull',
    'IsNotNull',
  ],
  boolean: ['Equals', 'IsNull', 'IsNotNull'],
};

/** One-line meaning of each operator, as the reference gives it, with the inferred details appended. */
export const OPERATOR_SEMANTICS: Readonly<Record<FilterOperator, string>> = {
  Contains: 'field contains the text (inferred: case-insensitive, ordinal)',
  Equals:
    'field equals the value exactly (inferred: case-sensitive for text; numeric equality for numbers; same instant for dates, same UTC day for a date-only value)',
  StartsWith: 'field starts with the text (inferred: case-insensitive)',
  EndsWith: 'field ends with the text (inferred: case-insensitive)',
  IsNull: 'field has no value (takes no value)',
  IsNotNull: 'field has a value (takes no value)',
  Gt: 'greater than (numbers and dates)',
  Gte: 'greater or equal (numbers and dates)',
  Lt: 'less than (numbers and dates)',
  Lte: 'less or equal (numbers and dates)',
  IsAfter: 'date comparison: strictly after (a date-only value compares whole UTC days)',
  IsOnOrAfter: 'date comparison: on or after',
  IsBefore: 'date comparison: strictly before',
  IsOnOrBefore: 'date comparison: on or before',
};
