import { catalogEntry, toCatalogEntry } from '../../spec/errors/index.js';
import type { Handler } from '../http/context.js';
import { notFound, ok } from '../http/context.js';

/** `GET /v1/errors/{errorCode}` (Endpoints / Get an error from the catalog): 200 with the entry, or 404. */
export const getError: Handler = (ctx) => {
  const code = ctx.params.errorCode ?? '';
  const record = catalogEntry(code);
  if (!record) {
    if (ctx.faults.has('unknown-error-code-200')) return ok(200, { code, title: 'Unknown', description: 'Unknown error.', parameters: [], status: 400 });
    return notFound(ctx, 'ErrorCode', code);
  }
  return ok(200, { ...toCatalogEntry(record), status: record.status });
};

export const errorHandlers: Record<string, Handler> = { getError };
