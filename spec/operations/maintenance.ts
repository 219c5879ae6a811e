import { listField } from '../lists/fields.js';
import { listExamples } from '../lists/examples.js';
import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, forbidden, listBadRequest } from './standard-errors.js';

const assetFields = [
  listField('id', 'string'),
  listField('code', 'string'),
  listField('name', 'string'),
  listField('kind', 'enum', { enumValues: ['Equipment', 'Space'] }),
  listField('parentId', 'string', { nullable: true }),
  listField('status', 'enum', { enumValues: ['Operational', 'OutOfService'] }),
  listField('hoursInService', 'number'),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date'),
];

/** `GET /v1/maintenance/assets` (named in the reference's error messages only). */
export const listAssets: OperationDef = {
  operationId: 'listAssets',
  method: 'get',
  path: '/v1/maintenance/assets',
  tag: 'Maintenance',
  summary: 'List maintenance assets',
  description: 'Lists equipment and space assets.',
  ...INF("This operation appears only in an error message of the reference; its shape is this kit's decision."),
  permission: { name: 'Maintenance.Assets.Read', ...INF('Not shown; `Domain.Resource.Access` shape.') },
  apiKey: DOC('auth.2.api-key'),
  pathParams: [],
  list: {
    parametersIn: 'query',
    item: 'Asset',
    filterAndSort: true,
    fieldsRationale: 'Fields not shown; every scalar field of the asset is offered.',
    fields: assetFields,
    examples: listExamples(assetFields, {
      filterBy: 'kind[Equals]Equipment && status[Equals]OutOfService',
      sortBy: '-hoursInService',
    }),
  },
  success: {
    status: 200,
    schema: 'AssetPage',
    description: 'A page of assets.',
    ...INF('A page envelope, like every list.'),
  },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(false), RATE_LIMITED],
};
