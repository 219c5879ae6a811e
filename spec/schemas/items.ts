import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
  NAME_LENGTH_RATIONALE,
  TEXT_LENGTH_RATIONALE,
  inferredMaxLength,
} from '../limits.js';
import { documented, inferred, inferredKeyword, nonEmptyId } from '../provenance.js';
import { AUDIT_RATIONALE, DateTime, NullableString } from './common.js';
import { closedBody, openObject } from './open.js';

const SKU_FIELDS_RATIONALE =
  'The reference shows only `id`, `reference` and `name` for a SKU list item ("Other SKU fields: not shown"); the mock exposes a few more fields so every filter operator has a field to act on.';

/** A SKU as `GET /v1/items/skus` lists it (Resources / Page of results). */
export const SkuListItem = Type.Object(
  {
    id: Type.String({
      ...nonEmptyId(),
      description: 'identifier of the SKU',
      ...documented('resources.page.sku-item'),
    }),
    reference: Type.String({
      ...nonEmptyId(),
      description: 'the SKU reference used in paths',
      ...documented('resources.page.sku-item'),
    }),
    name: Type.String({ description: 'SKU name', ...documented('resources.page.sku-item') }),
    description: NullableString('free text description', inferred(SKU_FIELDS_RATIONALE)),
    familyId: NullableString(
      'identifier of the family of the SKU, null when it has none',
      inferred(SKU_FIELDS_RATIONALE),
    ),
    status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')], {
      description: 'lifecycle status',
      ...inferred(SKU_FIELDS_RATIONALE),
    }),
    baseUnitOfMeasureId: Type.String({
      description: 'identifier of the base unit of measure',
      ...inferred(SKU_FIELDS_RATIONALE),
    }),
    totalStock: Type.Number({
      description: 'stock over all locations and lots, in the base unit',
      ...inferred(SKU_FIELDS_RATIONALE),
    }),
    isStockControlled: Type.Boolean({
      description: 'whether stock is tracked for the SKU',
      ...inferred(SKU_FIELDS_RATIONALE),
    }),
    createdAt: DateTime('creation time', inferred(AUDIT_RATIONALE)),
    lastModifiedAt: DateTime('last modification time', inferred(AUDIT_RATIONALE)),
  },
  {
    ...openObject('Resources / Page of results: "Other SKU fields: not shown".'),
    ...documented('resources.page.sku-item'),
  },
);
export type SkuListItem = Static<typeof SkuListItem>;

/** Body of `PUT /v1/items/skus/{skuReference}/stock` (Resources / Stock update body). */
export const StockUpdateBody = Type.Object(
  {
    locationReference: Type.String({
      ...nonEmptyId(),
      ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
      description: 'reference of the location',
      ...documented('resources.stock-body.locationReference'),
    }),
    stock: Type.Number({
      ...inferredKeyword(
        'minimum',
        0,
        'The reference types `stock` as a number ("the stock quantity to set") without bounds; a stock level below zero is rejected.',
      ),
      description: 'the stock quantity to set',
      ...documented('resources.stock-body.stock'),
    }),
    lotId: Type.Optional(
      Type.String({
        ...nonEmptyId(),
        ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
        description: 'lot identifier',
        ...documented('resources.stock-body.lotId'),
      }),
    ),
    comment: Type.Optional(
      Type.String({
        ...inferredMaxLength(MAX_TEXT_LENGTH, TEXT_LENGTH_RATIONALE),
        description: 'free text',
        ...documented('resources.stock-body.comment'),
      }),
    ),
    stockUnitOfMeasureId: Type.Optional(
      Type.String({
        ...nonEmptyId(),
        ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
        description: 'identifier of the unit of measure of `stock`; the base unit of the SKU when omitted (inferred)',
        ...documented('resources.stock-body.stockUnitOfMeasureId'),
      }),
    ),
  },
  closedBody(
    'Required fields are not shown. `locationReference` and `stock` are required (a stock level needs a place and a quantity); `lotId`, `comment` and `stockUnitOfMeasureId` are optional; a negative stock is rejected.',
  ),
);
export type StockUpdateBody = Static<typeof StockUpdateBody>;

/** A SKU inspection definition (Resources / SKU inspection definition). */
export const InspectionDefinition = Type.Object(
  {
    id: Type.String({
      ...nonEmptyId(),
      description: 'identifier (response only)',
      ...documented('resources.inspection.id'),
    }),
    name: Type.String({ description: 'name of the inspection', ...documented('resources.inspection.name') }),
    type: Type.String({
      description:
        'inspection type (response only); `Simple` is shown. Other allowed values are not shown, so any string is accepted in responses; the mock uses `Simple`, `Numeric` and `Photo` (inferred).',
      examples: ['Simple'],
      ...documented('resources.inspection.type'),
    }),
    isMandatory: Type.Boolean({
      description: 'whether the inspection must be completed',
      ...documented('resources.inspection.isMandatory'),
    }),
  },
  {
    ...openObject(
      'Resources / SKU inspection definition lists four fields; the reference does not say a definition has no others (its other `type` values are "not shown" either).',
    ),
    ...documented('endpoints.inspection.response-body'),
  },
);
export type InspectionDefinition = Static<typeof InspectionDefinition>;

/** Body of `PUT /v1/items/skus/{skuReference}/inspections/{inspectionId}`. */
export const InspectionUpdateBody = Type.Object(
  {
    name: Type.String({
      ...inferredKeyword('minLength', 1, 'Constraints of the name are not shown; a name is not empty.'),
      ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
      description: 'new name',
      ...documented('endpoints.inspection.request-body'),
    }),
    isMandatory: Type.Boolean({
      description: 'whether the inspection is mandatory',
      ...documented('endpoints.inspection.request-body'),
    }),
  },
  closedBody(
    'Required fields are not shown; a PUT replaces the definition, so both fields are required; a name is 1..200 characters.',
  ),
);
export type InspectionUpdateBody = Static<typeof InspectionUpdateBody>;

const FAMILY_RATIONALE =
  "The family endpoints appear only in error messages of the reference; the resource shape is this kit's decision (families group SKUs in the catalog).";

/** A SKU family (`POST /v1/items/families/search`). */
export const Family = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the family', ...inferred(FAMILY_RATIONALE) }),
    code: Type.String({ description: 'family code', ...inferred(FAMILY_RATIONALE) }),
    name: Type.String({ description: 'family name', ...inferred(FAMILY_RATIONALE) }),
    description: NullableString('free text', inferred(FAMILY_RATIONALE)),
    skuCount: Type.Integer({ minimum: 0, description: 'number of SKUs in the family', ...inferred(FAMILY_RATIONALE) }),
    createdAt: DateTime('creation time', inferred(AUDIT_RATIONALE)),
    lastModifiedAt: DateTime('last modification time', inferred(AUDIT_RATIONALE)),
  },
  {
    ...openObject(
      'The family endpoints appear only in error messages ("Their details: not shown"); a real family has fields this kit does not know.',
    ),
    ...inferred(FAMILY_RATIONALE),
  },
);
export type Family = Static<typeof Family>;
