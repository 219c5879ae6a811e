import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  FILTER_LENGTH_RATIONALE,
  MAX_FILTER_LENGTH,
  MAX_PAGE_NUMBER,
  MAX_SORT_LENGTH,
  PAGE_NUMBER_RATIONALE,
  SORT_LENGTH_RATIONALE,
  inferredMaxLength,
  inferredMaximum,
} from '../limits.js';
import { documented, inferredKeyword } from '../provenance.js';
import { closedBody, openObject } from './open.js';

/** ISO 8601 date-time string (UTC). No date field of a resource is shown by the reference: `marks` say why it is there. */
export const DateTime = (description: string, marks: object) =>
  Type.String({ format: 'date-time', description, ...marks });

/** A date-time that may be null. */
export const NullableDateTime = (description: string, marks: object) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description, ...marks });

/** A string that may be null. */
export const NullableString = (description: string, marks: object) =>
  Type.Union([Type.String(), Type.Null()], { description, ...marks });

/** Rationale shared by the audit timestamps the mock adds to its resources. */
export const AUDIT_RATIONALE =
  'The reference names CreatedAt and LastModifiedAt as filterable and sortable date fields "where an endpoint exposes them" but does not show the resource fields; every stored resource here exposes them.';

/** Why the bounds of the envelope's page fields are inferred though the list parameters' bounds are documented. */
const PAGE_BOUND_RATIONALE =
  'Limits bound the pageNumber and pageSize parameters; that the page returned and the size used stay within those bounds follows from them but is not stated of the envelope.';
const COUNT_RATIONALE = 'The reference types the counts as integers; a count is not negative.';

/**
 * The page envelope (Resources / Page of results): generic over its item. The shape is documented; whether an
 * operation answers it is the provenance of that operation's success body (`x-body-provenance`).
 */
export function pageOf<T extends TSchema>(item: T, itemName: string) {
  return Type.Object(
    {
      results: Type.Array(item, { description: 'the items of the page', ...documented('resources.page.results') }),
      pageNumber: Type.Integer({
        ...inferredKeyword('minimum', 1, PAGE_BOUND_RATIONALE),
        description: 'the page returned',
        ...documented('resources.page.pageNumber'),
      }),
      pageSize: Type.Integer({
        ...inferredKeyword('minimum', 1, PAGE_BOUND_RATIONALE),
        ...inferredKeyword('maximum', 1000, PAGE_BOUND_RATIONALE),
        description: 'the page size used',
        ...documented('resources.page.pageSize'),
      }),
      totalPages: Type.Integer({
        ...inferredKeyword('minimum', 0, COUNT_RATIONALE),
        description: 'number of pages (0 when there are no items; inferred)',
        ...documented('resources.page.totalPages'),
      }),
      totalCount: Type.Integer({
        ...inferredKeyword('minimum', 0, COUNT_RATIONALE),
        description: 'number of items over all pages',
        ...documented('resources.page.totalCount'),
      }),
    },
    {
      // Inferred: open like the items, so a server that adds paging aids (links, cursors) is listed, not failed.
      ...openObject(
        'Resources / Page of results lists five envelope fields but does not say the envelope has no others, and its items have fields that are "not shown"; a server may add paging aids such as links.',
      ),
      title: `${itemName}Page`,
      description: `A page of ${itemName} items.`,
      ...documented('lists.general'),
    },
  );
}

/** Static type of a page envelope. */
export interface Page<T> {
  results: T[];
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}

/** The list parameters of the reference, as they are carried in a search body (POST search endpoints). */
export const ListBody = Type.Object(
  {
    pageNumber: Type.Optional(
      Type.Integer({
        minimum: 1,
        ...inferredMaximum(MAX_PAGE_NUMBER, PAGE_NUMBER_RATIONALE),
        default: 1,
        description: `page to return, 1..${MAX_PAGE_NUMBER}`,
        ...documented('lists.pageNumber'),
      }),
    ),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1000,
        default: 25,
        description: 'items per page, 1..1000',
        ...documented('lists.pageSize'),
      }),
    ),
    filterBy: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_FILTER_LENGTH, FILTER_LENGTH_RATIONALE),
        description: 'filter expression `Field[Operator]value` (see the FilterBy parameter)',
        ...documented('lists.filterBy'),
      }),
    ),
    sortBy: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_SORT_LENGTH, SORT_LENGTH_RATIONALE),
        description: 'sort field, `-` prefix for descending',
        ...documented('lists.sortBy'),
      }),
    ),
  },
  {
    description: 'List parameters carried in the body of a search request.',
    ...closedBody(
      'The reference names POST /v1/items/families/search but not its body; a search endpoint carries the documented list parameters in its JSON body.',
    ),
  },
);
export type ListBody = Static<typeof ListBody>;
