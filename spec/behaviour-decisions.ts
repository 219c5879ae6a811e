import { inferred } from './provenance.js';

/**
 * Behaviour the contract decides where the reference is silent and no schema, parameter or response of the document
 * can carry the decision: how texts compare and sort, how a filter groups, how problems are typed. Emitted as
 * `x-behaviour` so the conformance runner can name these nodes as the facts its SHOULD checks rest on, and a reader
 * sees each decision with its reason.
 */
export const BEHAVIOUR_DECISIONS = {
  'problem-media-type': {
    value: 'application/problem+json',
    ...inferred(
      'Errors / Problem body says only that errors are JSON objects; RFC 9457 gives problem details their own media type. Clients accept application/json as well.',
    ),
  },
  'sort-collation': {
    value: 'ordinal text order; nulls first ascending (last descending); ties broken by id',
    ...inferred(
      'Endpoints / List and search endpoints give sortBy and its leading `-` but no collation, null order or tie-break; an ordinal order is the same in every locale, and a tie-break by id keeps page walks stable.',
    ),
  },
  'filter-precedence': {
    value: '`&&` binds tighter than `||`',
    ...inferred(
      'The reference gives `&&`, `||` and parentheses but no precedence; AND before OR is the precedence of SQL and of most filter languages.',
    ),
  },
  'text-case': {
    value: 'Contains, StartsWith and EndsWith compare without regard to case',
    ...inferred(
      'The reference says "field contains the text" without saying whether case matters; searches usually ignore it.',
    ),
  },
  'field-name-case': {
    value:
      'field names in filterBy and sortBy match without regard to case (`createdAt` and `CreatedAt` are one field)',
    ...inferred(
      'The reference writes filter fields in PascalCase (`CreatedAt`) while JSON members are camelCase; matching without regard to case accepts both spellings.',
    ),
  },
  'date-only-day': {
    value: 'a date-only value (`2025-03-01`) compares whole UTC days',
    ...inferred('Date values of filters are not specified; a date without a time names a day, read in UTC.'),
  },
} as const;
