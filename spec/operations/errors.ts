import { Type } from '@sinclair/typebox';
import type { OperationDef } from './types.js';
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
  ...DOC,
  permission: { name: null, ...INF('Not shown; any authenticated caller may read the catalog.') },
  apiKey: INF('Accepted on every operation (the reference names list requests only).'),
  pathParams: [
    {
      name: 'errorCode',
      description: 'one of the codes of the error catalog',
      schema: Type.String({ minLength: 1, maxLength: 200 }),
      example: 'COMMON.ENTITY.NOT_FOUND',
    },
  ],
  success: { status: 200, schema: 'ErrorCatalogEntry', description: 'The catalog entry.', ...DOC },
  errors: [UNAUTHORIZED, notFound(true, 'The error code'), RATE_LIMITED],
};
