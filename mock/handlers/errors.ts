import { catalogEntry, toCatalogEntry } from '../../spec/errors/index.js';
import type { Handler } from './context.js';
import { notFound, ok } from './context.js';
import type { DomainHandlers } from './types.js';

/** `GET /v1/errors/{errorCode}` (Endpoints / Get an error from the catalog): 200 with the entry, or 404. */
const getError: Handler = (ctx) => {
  const code = ctx.params.errorCode ?? '';
  const record = catalogEntry(code);
  if (!record) return notFound(ctx, 'ErrorCode', code);
  return ok(200, { ...toCatalogEntry(record), status: record.status });
};

export const errorHandlers = { getError } satisfies DomainHandlers;
