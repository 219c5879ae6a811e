import type { OperationDef } from './types.js';
import { pathString } from './common-params.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, notFound } from './standard-errors.js';

/** Endpoints / Get an error from the catalog. */
export const getError: OperationDef = {
  operationId: 'getError',
  method: 'get',
  path: '/v1/errors/{errorCode}',
  tag: 'Errors',
  summary: 'Get an error from the catalog',
  description: 'Returns the catalog entry of an error code: title, description and parameters.',
  ...DOC('endpoints.get-error.method-path'),
  permission: { name: null, ...INF('Not shown; any authenticated caller may read the catalog.') },
  apiKey: INF('Accepted on every operation (the reference names list requests only).'),
  pathParams: [
    {
      name: 'errorCode',
      description: 'one of the codes of the error catalog',
      schema: pathString(),
      example: 'COMMON.ENTITY.NOT_FOUND',
      quote: 'endpoints.get-error.path-parameter',
    },
  ],
  success: {
    status: 200,
    schema: 'ErrorCatalogEntry',
    description: 'The catalog entry.',
    ...DOC('endpoints.get-error.response'),
  },
  errors: [UNAUTHORIZED, notFound('endpoints.get-error.error-statuses', 'The error code'), RATE_LIMITED],
};
