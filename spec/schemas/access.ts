import { Type, type Static } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE, inferredMaxLength } from '../limits.js';
import { documented, inferredKeyword, nonEmptyId } from '../provenance.js';
import { closedBody, openObject } from './open.js';

/** Body of `POST /v1/access/apiKeys` (Endpoints / Create an API key: "Request body | `{ name: string }`"). */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({
      ...inferredKeyword(
        'minLength',
        1,
        'Constraints of `name` (length, uniqueness, allowed characters) are not shown; a name is not empty, duplicates are allowed.',
      ),
      ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
      description: 'name of the key',
      ...documented('endpoints.create-key.request-body'),
    }),
  },
  closedBody('Which body fields are required is not shown; `name` is the only field and is required.'),
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** The API key record (Resources / API key). */
export const ApiKey = Type.Object(
  {
    id: Type.String({
      ...nonEmptyId(),
      description: 'identifier of the key record',
      ...documented('resources.api-key.id'),
    }),
    key: Type.String({
      ...inferredKeyword('minLength', 1, 'The reference shows the key as a string; an empty key could not be sent.'),
      description: 'the secret key value, returned in the creation response',
      ...documented('resources.api-key.key'),
    }),
    name: Type.String({ description: 'the name sent at creation', ...documented('resources.api-key.name') }),
    orgCode: Type.String({ description: 'organisation code', ...documented('resources.api-key.orgCode') }),
    isActive: Type.Boolean({ description: 'whether the key is active', ...documented('resources.api-key.isActive') }),
  },
  {
    ...openObject(
      'Resources / API key lists five fields of the creation response; the reference does not say the key record has no other fields.',
    ),
    ...documented('endpoints.create-key.response-body'),
  },
);
export type ApiKey = Static<typeof ApiKey>;
