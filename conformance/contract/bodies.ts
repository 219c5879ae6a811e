import type { Exchange } from '../wire/client.js';

/** The media type of a Content-Type value, lowercased, without parameters ('' when there is none). */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Whether a media type is JSON: `application/json` or a `+json` type such as `application/problem+json`. */
export function isJsonMedia(type: string): boolean {
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * How a target answered a collection: the documented page envelope (Resources / Page of results), or a bare JSON
 * array. The reference shows no response shape for several collections ("Response shape: not shown").
 */
export type CollectionForm = 'envelope' | 'array';

/** A page envelope as received. */
interface PageBody {
  results: Record<string, unknown>[];
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}

/** The page envelope of an exchange, or undefined when the body is not one. */
export function pageOf(exchange: Exchange): PageBody | undefined {
  const b = exchange.json as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || !Array.isArray(b.results)) return undefined;
  if (![b.pageNumber, b.pageSize, b.totalPages, b.totalCount].every((n) => typeof n === 'number')) return undefined;
  return b as unknown as PageBody;
}

/** A problem body, loosely typed. */
type ProblemBody = {
  type?: unknown;
  title?: unknown;
  status?: unknown;
  detail?: unknown;
  instance?: unknown;
  code?: unknown;
  parameters?: unknown;
};

export function problemOf(exchange: Exchange): ProblemBody | undefined {
  const b = exchange.json;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as ProblemBody) : undefined;
}
