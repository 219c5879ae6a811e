import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, bodyBadRequest, forbidden, planLimitExceeded } from './standard-errors.js';
import { link } from './links.js';

/** Endpoints / Create an API key. */
export const createApiKey: OperationDef = {
  operationId: 'createApiKey',
  method: 'post',
  path: '/v1/access/apiKeys',
  tag: 'Access',
  summary: 'Create an API key',
  description:
    "Creates an API key for the caller's organisation. The `key` value is returned in this response; send it in the `X-Api-Key` header.",
  ...DOC('endpoints.create-key.method-path'),
  permission: { name: 'App.Admin', ...DOC('endpoints.create-key.permission') },
  apiKey: INF(
    'The reference says the API key is sent "in list requests"; this kit also accepts it on every other operation, with the tenant and permissions of the key\'s creator.',
  ),
  pathParams: [],
  requestBody: {
    schema: 'CreateApiKeyBody',
    description: '`{ name: string }`',
    example: { name: 'ci-pipeline' },
    ...DOC('endpoints.create-key.request-body'),
  },
  success: {
    status: 201,
    schema: 'ApiKey',
    description: 'The created key, `key` included.',
    links: {
      listSkusWithKey: link(
        'listSkus',
        { 'header.X-Api-Key': '$response.body#/key' },
        'Lists SKUs with the new key in the `X-Api-Key` header (Authentication, point 2: the key is sent in list requests), no bearer token needed. ' +
          'Limitation: `X-Api-Key` is the credential of the `ApiKey` security scheme, not a parameter the list operation declares, so tools that only fill declared parameters from a link must put the value into that scheme themselves.',
      ),
    },
    // The body is documented, its status is not: any 2xx with the key object meets the reference, 201 is the contract's.
    body: DOC('endpoints.create-key.response-body'),
    ...INF('Success status code: not shown. 201 Created is used for a created resource.'),
  },
  errors: [bodyBadRequest(), UNAUTHORIZED, forbidden(true), planLimitExceeded('API keys'), RATE_LIMITED],
};
