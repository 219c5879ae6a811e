import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, bodyBadRequest, forbidden } from './standard-errors.js';

/** Endpoints / Create an API key. */
export const createApiKey: OperationDef = {
  operationId: 'createApiKey',
  method: 'post',
  path: '/v1/access/apiKeys',
  tag: 'Access',
  summary: 'Create an API key',
  description:
    'Creates an API key for the caller\'s organisation. The `key` value is returned in this response; send it in the `X-Api-Key` header.',
  ...DOC,
  permission: { name: 'App.Admin', ...DOC },
  apiKey: INF('The reference says the API key is sent "in list requests"; this kit also accepts it on every other operation, with the tenant and permissions of the key\'s creator.'),
  pathParams: [],
  requestBody: { schema: 'CreateApiKeyBody', description: '`{ name: string }`', ...DOC },
  success: {
    status: 201,
    schema: 'ApiKey',
    description: 'The created key, `key` included.',
    ...INF('Success status code: not shown. 201 Created is used for a created resource.'),
  },
  errors: [bodyBadRequest(false), UNAUTHORIZED, forbidden(true), RATE_LIMITED],
};
