import type { ParameterObject } from 'openapi3-ts/oas31';
import { FILTER_OPERATORS, OPERATOR_SEMANTICS } from './lists/operators.js';
import { documented, factMarks, inferred } from './provenance.js';
import {
  FILTER_LENGTH_RATIONALE,
  MAX_FILTER_LENGTH,
  MAX_PAGE_NUMBER,
  MAX_SORT_LENGTH,
  PAGE_NUMBER_RATIONALE,
  SORT_LENGTH_RATIONALE,
  inferredMaxLength,
  inferredMaximum,
} from './limits.js';

/** The filter language, written once for the `FilterBy` parameter and the search body. */
const FILTER_GRAMMAR = [
  'Filter expression (Endpoints / List and search endpoints). A condition is `Field[Operator]value`;',
  '`&&` means AND, `||` means OR, parentheses group conditions. Inside a URL query string `&&` is sent percent-encoded (`%26%26`).',
  '',
  'Operators:',
  ...FILTER_OPERATORS.map((op) => `- \`${op}\`: ${OPERATOR_SEMANTICS[op]}`),
  '',
  'Inferred details (not shown by the reference): `&&` binds tighter than `||`; field and operator names are case-insensitive',
  '(`CreatedAt` and `createdAt` name the same field); a value runs to the next `&&`, `||` or a `)` that closes an open group, and is trimmed,',
  'or is double-quoted (`Name[Contains]"a && b"`, with `\\"` and `\\\\` escapes); `IsNull`/`IsNotNull` take no value; dates are',
  'ISO 8601 (`2024-05-01` compares whole UTC days, `2024-05-01T10:00:00Z` an instant). Each list operation lists its fields and',
  'their operators in `x-filterable`. An unparsable filter or an unknown column gives 400 `COMMON.QUERY.FILTER_PARSING_FAILED`.',
  '',
  'Grammar (EBNF): expr = and { "||" and } ; and = primary { "&&" primary } ; primary = "(" expr ")" | condition ;',
  'condition = field "[" operator "]" [ value ] ; field = letter { letter | digit | "_" | "." } ;',
].join('\n');

/** The sort syntax. */
const SORT_SYNTAX = [
  'Field name; a leading `-` means descending order (documented). Inferred: several fields separated by commas',
  '(`-createdAt,name`); text sorts by ordinal (code unit) order, nulls first ascending; ties are broken by `id` ascending.',
  'Each list operation lists its sortable fields in `x-sortable`. An unknown field gives 400 `COMMON.QUERY.SORTING_PARSING_FAILED`.',
].join(' ');

/** The shared list parameters, as `components.parameters`. */
export const LIST_PARAMETERS: Readonly<Record<string, ParameterObject>> = {
  PageNumber: {
    name: 'pageNumber',
    in: 'query',
    required: false,
    description: `The page to return, >= 1 (default 1), at most ${MAX_PAGE_NUMBER} (inferred). Out of bounds: 400 COMMON.VALIDATION.ERROR (inferred; clamping is also allowed by the rule).`,
    schema: { type: 'integer', minimum: 1, ...inferredMaximum(MAX_PAGE_NUMBER, PAGE_NUMBER_RATIONALE), default: 1 },
    example: 1,
    ...documented('lists.pageNumber'),
  },
  PageSize: {
    name: 'pageSize',
    in: 'query',
    required: false,
    description:
      'Items per page, between 1 and 1000 inclusive (default 25). Out of bounds: 400 COMMON.VALIDATION.ERROR (inferred).',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 25 },
    example: 50,
    ...documented('lists.pageSize'),
  },
  FilterBy: {
    name: 'filterBy',
    in: 'query',
    required: false,
    description: FILTER_GRAMMAR,
    schema: { type: 'string', ...inferredMaxLength(MAX_FILTER_LENGTH, FILTER_LENGTH_RATIONALE) },
    ...documented('lists.filterBy'),
  },
  SortBy: {
    name: 'sortBy',
    in: 'query',
    required: false,
    description: SORT_SYNTAX,
    schema: { type: 'string', ...inferredMaxLength(MAX_SORT_LENGTH, SORT_LENGTH_RATIONALE) },
    ...documented('lists.sortBy'),
  },
};

/**
 * Why `filterBy` and `sortBy` are on a list: their syntax is documented (the parameter's own marks), which endpoints
 * take them is not: `x-presence-provenance: inferred` beside.
 */
const FILTER_AND_SORT_PRESENCE = factMarks(
  {
    provenance: 'inferred',
    rationale:
      'List and search endpoints accept `filterBy` and `sortBy` "on some endpoints"; which ones is not shown. This list takes them.',
  },
  'presence',
);

/**
 * The `filterBy` and `sortBy` parameters of one list operation: the shared definitions with the operation's own
 * examples, and their presence on the operation marked inferred. They are written inline, not as `$ref`, because an
 * example must name fields of that operation (`x-filterable`, `x-sortable`) and OpenAPI 3.1 ignores siblings of a
 * `$ref`.
 */
export function filterAndSortParameters(examples: {
  readonly filterBy: string;
  readonly sortBy: string;
}): ParameterObject[] {
  const { FilterBy, SortBy } = LIST_PARAMETERS as Record<'FilterBy' | 'SortBy', ParameterObject>;
  return [
    { ...FilterBy, example: examples.filterBy, ...FILTER_AND_SORT_PRESENCE },
    { ...SortBy, example: examples.sortBy, ...FILTER_AND_SORT_PRESENCE },
  ];
}

/** The `Retry-After` header of a 429 (inferred: the reference does not say how the delay is told). */
export const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 0 },
  ...inferred(
    'The reference says the caller "retries after the indicated delay" but not how the delay is told; the standard `Retry-After` header (seconds) carries it.',
  ),
} as const;
