import type { Credential, Exchange, HttpClient, RequestSpec } from '../wire/client.js';
import { type CollectionForm, pageOf } from '../contract/bodies.js';

/** Everything read of one collection. */
export interface CollectionRead {
  form: CollectionForm;
  items: Record<string, unknown>[];
  /** Every item was read (the envelope was walked to `totalPages`, or the array came whole). */
  complete: boolean;
  /** The first answer (evidence for a check). */
  first: Exchange;
}

/** Pages read at most when walking an envelope (each of `pageSize` items). */
const MAX_PAGES = 20;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a collection in whichever form the target answers: a bare array as it comes, or the page envelope walked
 * while `pageNumber` is less than `totalPages` ("A client walks all pages by requesting pages while pageNumber is
 * less than totalPages"). Returns a reason instead when the answer is neither form or not a 2xx.
 */
export async function readCollection(
  client: HttpClient,
  check: string,
  request: { path: string; query?: Record<string, string | number | undefined>; auth?: Credential },
  pageSize = 1000,
): Promise<CollectionRead | string> {
  const spec = (pageNumber: number): RequestSpec => ({
    method: 'GET',
    path: request.path,
    query: { ...request.query, pageNumber, pageSize },
    ...(request.auth ? { auth: request.auth } : {}),
  });
  const first = await client.send(check, spec(1));
  if (first.status < 200 || first.status >= 300) return `GET ${request.path} answered ${first.status}`;
  if (Array.isArray(first.json)) return { form: 'array', items: first.json.filter(isRecord), complete: true, first };
  const page = pageOf(first);
  if (!page) return `GET ${request.path} answered neither a page envelope nor a JSON array`;
  const items = page.results.filter(isRecord);
  let pageNumber = page.pageNumber;
  let totalPages = page.totalPages;
  while (pageNumber < totalPages && pageNumber < MAX_PAGES) {
    const next = pageOf(await client.send(check, spec(pageNumber + 1)));
    if (!next || next.results.length === 0) break;
    items.push(...next.results.filter(isRecord));
    pageNumber = next.pageNumber > pageNumber ? next.pageNumber : pageNumber + 1;
    totalPages = next.totalPages;
  }
  return { form: 'envelope', items, complete: pageNumber >= totalPages, first };
}
