import { Type } from '@sinclair/typebox';
import { documented, inferred } from '../provenance.js';
import { openObject } from './open.js';

/** One parameter of an error code (Resources / Error catalog entry). */
export const ErrorParameter = Type.Object(
  {
    key: Type.String({ description: 'parameter name', ...documented('resources.catalog-entry.parameters') }),
    description: Type.String({
      description: 'what the parameter holds',
      ...documented('resources.catalog-entry.parameters'),
    }),
  },
  {
    ...openObject(
      'Resources / Error catalog entry: each parameter "has `key` and `description`"; the reference does not say it has no other fields.',
    ),
    ...documented('resources.catalog-entry.parameters'),
  },
);

/** An entry of the error catalog, as `GET /v1/errors/{errorCode}` serves it. */
export const ErrorCatalogEntry = Type.Object(
  {
    code: Type.Unsafe<string>({
      $ref: '#/components/schemas/ErrorCode',
      description: 'one of the error codes',
      ...documented('resources.catalog-entry.code'),
    }),
    title: Type.String({ ...documented('resources.catalog-entry.title') }),
    description: Type.String({ ...documented('resources.catalog-entry.description') }),
    parameters: Type.Array(ErrorParameter, { ...documented('resources.catalog-entry.parameters') }),
    status: Type.Integer({
      minimum: 400,
      maximum: 599,
      description: 'the HTTP status this code is answered with',
      ...inferred(
        "The reference gives the status of five codes only (Errors / Status and code pairs shown) and shows no status field in the entry; the entry carries the status so clients can map codes to statuses. For codes without a documented status the value is this kit's decision.",
      ),
    }),
  },
  {
    ...openObject(
      'Resources / Error catalog entry lists four fields; the reference does not say an entry has no others ("Conditions behind each code beyond what its name says: not shown").',
    ),
    ...documented('endpoints.get-error.response'),
  },
);
