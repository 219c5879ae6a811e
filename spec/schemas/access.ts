import { Type, type Static } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE, inferredMaxLength } from '../limits.js';
import { documented, inferred } from '../provenance.js';
import { closedBody, openObject } from './open.js';

/** Body of `POST /v1/access/apiKeys` (Endpoints / Create an API key). */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      ...inferredMaxLength(MAX_NAME_LENGTH, NAME_LENGTH_RATIONALE),
      description: 'name of the key',
      ...inferred(
        'The reference shows `{ name: string }` but not its constraints; a non-empty name of at most 200 characters is required, duplicates allowed.',
      ),
    }),
  },
  closedBody('Which body fields are required is not shown; `name` is the only field and is required.'),
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** The API key record (Resources / API key). */
export const ApiKey = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the key record', ...documented }),
    key: Type.String({
      minLength: 1,
      description: 'the secret key value, returned in the creation response',
      ...documented,
    }),
    name: Type.String({ description: 'the name sent at creation', ...documented }),
    orgCode: Type.String({ description: 'organisation code', ...documented }),
    isActive: Type.Boolean({ description: 'whether the key is active', ...documented }),
  },
  {
    ...openObject(
      'Resources / API key lists five fields of the creation response; the reference does not say the key record has no other fields.',
    ),
    ...documented,
  },
);
export type ApiKey = Static<typeof ApiKey>;
