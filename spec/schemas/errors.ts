import { Type, type Static } from '@sinclair/typebox';
import { documented, inferred } from '../provenance.js';
import { openObject } from './open.js';

/** One parameter of an error code (Resources / Error catalog entry). */
export const ErrorParameter = Type.Object(
  {
    key: Type.String({ description: 'parameter name', ...documented }),
    description: Type.String({ description: 'what the parameter holds', ...documented }),
  },
  {
    ...openObject(
      'Resources / Error catalog entry: each parameter "has `key` and `description`"; the reference does not say it has no other fields.',
    ),
    ...documented,
  },
);

/** An entry of the error catalog, as `GET /v1/errors/{errorCode}` serves it. */
export const ErrorCatalogEntry = Type.Object(
  {
    code: Type.Unsafe<string>({
      $ref: '#/components/schemas/ErrorCode',
      description: 'one of the error codes',
      ...documented,
    }),
    title: Type.String({ ...documented }),
    description: Type.String({ ...documented }),
    parameters: Type.Array(ErrorParameter, { ...documented }),
    status: Type.Integer({
      minimum: 400,
      maximum: 599,
      description: 'the HTTP status this code is answered with',
      ...inferred(
        "The reference gives statuses for six codes only; the entry carries the status so clients can map codes to statuses. For codes without a documented status the value is this kit's decision.",
      ),
    }),
  },
  {
    ...openObject(
      'Resources / Error catalog entry lists four fields; the reference does not say an entry has no others ("Conditions behind each code beyond what its name says: not shown").',
    ),
    ...documented,
  },
);
export type ErrorCatalogEntryBody = Static<typeof ErrorCatalogEntry>;
