import { Type, type Static } from '@sinclair/typebox';
import { documented, inferred } from '../provenance.js';

/** Body of `POST /v1/access/apiKeys` (Endpoints / Create an API key). */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'name of the key',
      ...inferred('The reference shows `{ name: string }` but not its constraints; a non-empty name of at most 200 characters is required, duplicates allowed.'),
    }),
  },
  { additionalProperties: false, ...inferred('Which body fields are required is not shown; `name` is the only field and is required.') },
);
export type CreateApiKeyBody = Static<typeof CreateApiKeyBody>;

/** The API key record (Resources / API key). */
export const ApiKey = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'identifier of the key record', ...documented }),
    key: Type.String({ minLength: 1, description: 'the secret key value, returned in the creation response', ...documented }),
    name: Type.String({ description: 'the name sent at creation', ...documented }),
    orgCode: Type.String({ description: 'organisation code', ...documented }),
    isActive: Type.Boolean({ description: 'whether the key is active', ...documented }),
  },
  { additionalProperties: false, ...documented },
);
export type ApiKey = Static<typeof ApiKey>;
