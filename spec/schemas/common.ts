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
import { documented } from '../provenance.js';
import { closedBody, openObject } from './open.js';

/** ISO 8601 date-time string (UTC). */
export const DateTime = (description: string, marks: object = documented) =>
  Type.String({ format: 'date-time', description, ...marks });

/** A date-time that may be null. */
export const NullableDateTime = (description: string, marks: object) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description, ...marks });

/** A string that may be null. */
export const NullableString = (description: string, marks: object) =>
  Type.Union([Type.String(), Type.Null()], { description, ...marks });

/** Resource identifiers are opaque strings (inferred: the reference shows `id` fields as strings only). */
export const Id = (description: string, marks: object = documented) =>
  Type.String({ minLength: 1, description, ...marks });

/** Rationale shared by the audit timestamps the mock adds to its resources. */
export const AUDIT_RATIONALE =
  'The reference names CreatedAt and LastModifiedAt as filterable and sortable date fields "where an endpoint exposes them" but does not show the resource fields; every stored resource here exposes them.';

/** The page envelope (Resources / Page of results): generic over its item. */
export function pageOf<T extends TSchema>(item: T, itemName: string) {
  return Type.Object(
    {
      results: Type.Array(item, { description: 'the items of the page', ...documented }),
      pageNumber: Type.Integer({ minimum: 1, description: 'the page returned', ...documented }),
      pageSize: Type.Integer({ minimum: 1, maximum: 1000, description: 'the page size used', ...documented }),
      totalPages: Type.Integer({
        minimum: 0,
        description: 'number of pages (0 when there are no items; inferred)',
        ...documented,
      }),
      totalCount: Type.Integer({ minimum: 0, description: 'number of items over all pages', ...documented }),
    },
    {
      // Inferred: open like the items, so a server that adds paging aids (links, cursors) is listed, not failed.
      ...openObject(
        'Resources / Page of results lists five envelope fields but does not say the envelope has no others, and its items have fields that are "not shown"; a server may add paging aids such as links.',
      ),
      title: `${itemName}Page`,
      description: `A page of ${itemName} items.`,
      ...documented,
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
        ...documented,
      }),
    ),
    pageSize: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'items per page, 1..1000', ...documented }),
    ),
    filterBy: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_FILTER_LENGTH, FILTER_LENGTH_RATIONALE),
        description: 'filter expression `Field[Operator]value` (see the FilterBy parameter)',
        ...documented,
      }),
    ),
    sortBy: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_SORT_LENGTH, SORT_LENGTH_RATIONALE),
        description: 'sort field, `-` prefix for descending',
        ...documented,
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
