import { listField } from '../lists/fields.js';
import { listExamples } from '../lists/examples.js';
import { DEMO } from '../examples/demo.js';
import type { OperationDef } from './types.js';
import { DOC, INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED, bodyBadRequest, forbidden, listBadRequest, notFound } from './standard-errors.js';
import { idParam, skuReferenceParam, pathString } from './common-params.js';
import { link } from './links.js';

const FIRST_SKU_REFERENCE = '$response.body#/results/0/reference';

const ONLY_IN_ERRORS =
  'This operation appears only in error messages of the reference ("Their details: not shown"); its shape is this kit\'s decision.';
const API_KEY_ELSEWHERE = INF(
  'The reference says the API key is sent "in list requests"; this kit also accepts it on every other operation.',
);

/** Endpoints / Update SKU stock. */
export const updateSkuStock: OperationDef = {
  operationId: 'updateSkuStock',
  method: 'put',
  path: '/v1/items/skus/{skuReference}/stock',
  tag: 'Items',
  summary: 'Update SKU stock',
  description:
    "Sets the stock of a SKU at a location (and lot). `stock` is expressed in `stockUnitOfMeasureId` (the SKU's base unit when omitted). Emits `Warehouse.Stock.Updated`.",
  ...DOC('endpoints.stock.method-path'),
  permission: { name: 'Warehouse.Counts.Write', ...DOC('endpoints.stock.permission') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [skuReferenceParam(DEMO.skuReference, 'endpoints.stock.path-parameter')],
  requestBody: {
    schema: 'StockUpdateBody',
    description: 'locationReference, stock, lotId, comment, stockUnitOfMeasureId',
    example: {
      locationReference: DEMO.locationReference,
      stock: 40,
      lotId: DEMO.lotId,
      comment: 'Cycle count',
      stockUnitOfMeasureId: DEMO.baseUnitOfMeasureId,
    },
    ...DOC('endpoints.stock.request-body'),
  },
  success: {
    status: 204,
    schema: null,
    description: 'No content (no response body).',
    // "no content (no response body)" is documented; the status that says it is not.
    body: DOC('endpoints.stock.success'),
    ...INF(
      'The reference gives the success as "no content (no response body)" without a status: any 2xx without a body meets it. 204 No Content is the status HTTP gives a success without content.',
    ),
  },
  errors: [
    bodyBadRequest('endpoints.stock.error-statuses'),
    UNAUTHORIZED,
    forbidden(true),
    notFound(undefined, 'The SKU, the location or the lot'),
    {
      status: 422,
      codes: ['COMMON.QUANTITY.UNIT_NOT_CONFIGURED', 'COMMON.QUANTITY.BASE_UNIT_PRECISION_EXCEEDED'],
      description:
        'The unit of measure is not configured for the SKU (UNIT_NOT_CONFIGURED), or the quantity has more decimals than the base unit allows (BASE_UNIT_PRECISION_EXCEEDED). The status is documented; which codes it carries is inferred.',
      ...DOC('endpoints.stock.error-statuses'),
    },
    RATE_LIMITED,
  ],
};

/** Endpoints / Update a SKU inspection definition. */
export const updateSkuInspection: OperationDef = {
  operationId: 'updateSkuInspection',
  method: 'put',
  path: '/v1/items/skus/{skuReference}/inspections/{inspectionId}',
  tag: 'Items',
  summary: 'Update a SKU inspection definition',
  description:
    'Replaces the name and mandatory flag of an inspection definition of a SKU and returns the updated definition. Emits `Items.Sku.InspectionUpdated`.',
  ...DOC('endpoints.inspection.method-path'),
  permission: { name: 'Warehouse.Skus.Write', ...DOC('endpoints.inspection.permission') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [
    skuReferenceParam(DEMO.skuReference, 'endpoints.inspection.path-parameters'),
    {
      name: 'inspectionId',
      description: 'identifier of the inspection definition',
      schema: pathString(),
      example: DEMO.inspectionId,
      quote: 'endpoints.inspection.path-parameters',
    },
  ],
  requestBody: {
    schema: 'InspectionUpdateBody',
    description: '`{ name: string, isMandatory: boolean }`',
    example: { name: 'Visual check', isMandatory: true },
    ...DOC('endpoints.inspection.request-body'),
  },
  success: {
    status: 200,
    schema: 'InspectionDefinition',
    description: 'The updated inspection definition.',
    body: DOC('endpoints.inspection.response-body'),
    ...INF('The response body is documented; its status is not shown: 200 OK.'),
  },
  errors: [
    bodyBadRequest('endpoints.inspection.error-statuses'),
    UNAUTHORIZED,
    forbidden(true),
    notFound('endpoints.inspection.error-statuses', 'The SKU or the inspection'),
    {
      status: 422,
      codes: ['ITEMS.SKU.CANNOT_OPERATE_ON_DELETED'],
      description:
        'The SKU is inactive (deleted) and cannot be changed. The status is documented; the code is inferred.',
      ...DOC('endpoints.inspection.error-statuses'),
    },
    RATE_LIMITED,
  ],
};

const skuFields = [
  listField('id', 'string'),
  listField('reference', 'string'),
  listField('name', 'string'),
  listField('description', 'string', { nullable: true }),
  listField('familyId', 'string', { nullable: true }),
  listField('status', 'enum', { enumValues: ['Active', 'Inactive'] }),
  listField('baseUnitOfMeasureId', 'string'),
  listField('totalStock', 'number'),
  listField('isStockControlled', 'boolean'),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date'),
];

/** `GET /v1/items/skus` (named in the reference's error messages only). */
export const listSkus: OperationDef = {
  operationId: 'listSkus',
  method: 'get',
  path: '/v1/items/skus',
  tag: 'Items',
  summary: 'List SKUs',
  description: 'Lists the SKUs of the catalog. Items carry at least `id`, `reference` and `name` (documented).',
  ...INF(ONLY_IN_ERRORS),
  permission: {
    name: 'Warehouse.Skus.Read',
    ...INF('Not shown; the read counterpart of the documented `Warehouse.Skus.Write`.'),
  },
  apiKey: DOC('auth.2.api-key'),
  pathParams: [],
  list: {
    parametersIn: 'query',
    item: 'SkuListItem',
    filterAndSort: true,
    fieldsRationale:
      'Which fields each endpoint supports is not shown; every scalar field of the SKU list item is filterable and sortable.',
    fields: skuFields,
    examples: listExamples(skuFields, { filterBy: 'name[Contains]bolt', sortBy: '-createdAt' }),
  },
  success: {
    status: 200,
    schema: 'SkuListItemPage',
    description: 'A page of SKUs.',
    links: {
      updateStock: link(
        'updateSkuStock',
        { skuReference: FIRST_SKU_REFERENCE },
        'Sets the stock of the first SKU of the page. The body (location, lot, unit) is not in the list item: the caller supplies it (the updateSkuStock example fits the first SKU of the unfiltered `demo` list).',
      ),
      updateInspection: link(
        'updateSkuInspection',
        { skuReference: FIRST_SKU_REFERENCE },
        "Updates an inspection definition of the first SKU of the page. `inspectionId` is not in the list item and no operation of the contract lists a SKU's inspections: the caller supplies it (the mock's GET /__mock/fixtures names the inspection ids of a sample SKU; the updateSkuInspection example fits the first SKU of the unfiltered `demo` list).",
      ),
    },
    ...INF(ONLY_IN_ERRORS),
  },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(false), RATE_LIMITED],
};

const familyFields = [
  listField('id', 'string'),
  listField('code', 'string'),
  listField('name', 'string'),
  listField('description', 'string', { nullable: true }),
  listField('skuCount', 'number'),
  listField('createdAt', 'date'),
  listField('lastModifiedAt', 'date'),
];
const familyExamples = listExamples(familyFields, { filterBy: 'name[Contains]nut && skuCount[Gt]0', sortBy: 'code' });

/** `POST /v1/items/families/search` (named in the reference's error messages only). */
export const searchFamilies: OperationDef = {
  operationId: 'searchFamilies',
  method: 'post',
  path: '/v1/items/families/search',
  tag: 'Items',
  summary: 'Search SKU families',
  description:
    'Searches the families of the catalog; the list parameters travel in the JSON body. Deleted families are not returned.',
  ...INF(ONLY_IN_ERRORS),
  permission: { name: 'Items.Families.Read', ...INF('Not shown; `Domain.Resource.Access` shape.') },
  apiKey: INF(
    'The reference says the API key is sent "in list requests" and names list and search endpoints apart; a search answers a page like a list, so the key is accepted here too.',
  ),
  pathParams: [],
  requestBody: {
    schema: 'ListBody',
    description: 'pageNumber, pageSize, filterBy, sortBy (all optional)',
    example: { pageNumber: 1, pageSize: 50, ...familyExamples },
    ...INF('The search body is not shown; it carries the list parameters.'),
  },
  list: {
    parametersIn: 'body',
    item: 'Family',
    filterAndSort: true,
    fieldsRationale: 'Fields not shown; every scalar field of the family is offered.',
    fields: familyFields,
    examples: familyExamples,
  },
  success: {
    status: 200,
    schema: 'FamilyPage',
    description: 'A page of families.',
    ...INF('Search answers 200 with a page envelope.'),
  },
  errors: [listBadRequest(true), UNAUTHORIZED, forbidden(false), RATE_LIMITED],
};

/** `DELETE /v1/items/families/{id}` (named in the reference's error messages only). */
export const deleteFamily: OperationDef = {
  operationId: 'deleteFamily',
  method: 'delete',
  path: '/v1/items/families/{id}',
  tag: 'Items',
  summary: 'Delete a SKU family',
  description:
    'Deletes a family. Deleted families are kept as tombstones: deleting again gives 409 ITEMS.FAMILY.ALREADY_DELETED; an id that never existed gives 404. Emits `Items.Family.Deleted`.',
  ...INF(ONLY_IN_ERRORS),
  permission: { name: 'Items.Families.Write', ...INF('Not shown; `Domain.Resource.Access` shape.') },
  apiKey: API_KEY_ELSEWHERE,
  pathParams: [
    idParam(
      'family',
      DEMO.familyId,
      'a family of the `demo` tenant with no SKUs; deleting it once succeeds, a second time gives 409 (a fresh tenant has it again)',
    ),
  ],
  success: { status: 204, schema: null, description: 'Deleted.', ...INF('204 No Content for a delete.') },
  errors: [
    UNAUTHORIZED,
    forbidden(false),
    notFound(undefined, 'The family'),
    {
      status: 409,
      codes: ['ITEMS.FAMILY.ALREADY_DELETED'],
      description: 'The family was already deleted.',
      ...INF(
        'The code exists in the catalog; tombstones make a second delete distinguishable from an unknown id. 409 Conflict.',
      ),
    },
    RATE_LIMITED,
  ],
};
