import { Type, type TSchema } from '@sinclair/typebox';
import { ORG_PATTERN } from '../../auth/org.js';
import { mintToken } from '../../auth/tokens.js';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import type { AdminContext, AdminInstance } from '../context.js';
import { BODY_PROBLEMS, jsonAnswer, NO_CREDENTIALS, problemAnswers, TAG } from '../doc-parts.js';
import { BODY_NOT_OBJECT, parseJsonBody, type Described } from '../validation.js';

/** Up to 200 strings of up to 200 characters: permissions and roles of a minted token. */
const stringList = (description: string) => Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200, description });

/** `POST /__mock/tokens`. */
const TokenBody = {
  schema: Type.Object({
    org: Type.String({ pattern: ORG_PATTERN.source, description: 'the tenant: a new org is a fresh, isolated world' }),
    permissions: Type.Optional(stringList('permissions claimed, e.g. `Warehouse.Counts.Write` (default none)')),
    roles: Type.Optional(stringList('roles claimed; `App.Admin` grants the admin operations (default none)')),
    // Negative values mint tokens that are already expired (tests of the plain 401).
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: -86_400,
        maximum: 31_536_000,
        description: 'seconds of validity, on real time (negative: already expired); default one day',
      }),
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    org: 'org must be 1-64 letters, digits, ".", "_" or "-".',
    permissions: 'permissions must be an array of strings.',
    roles: 'roles must be an array of strings.',
    expiresIn: 'expiresIn must be an integer number of seconds up to one year (negative values mint expired tokens).',
  },
} satisfies Described<TSchema>;

const MintedToken = Type.Object({
  token: Type.String({ description: 'an HS256 JWT for `Authorization: Bearer`' }),
});

/** `POST /__mock/tokens`: a token for any org. No credentials: the mock is a test double. */
export function registerTokens(admin: AdminInstance, { services }: AdminContext): void {
  admin.post(
    '/__mock/tokens',
    {
      schema: {
        operationId: 'mockMintToken',
        tags: [TAG.mock],
        summary: 'Mint an access token',
        description:
          "An HS256 JWT for any org, with the permissions and roles asked for (none by default), signed with the mock's `--jwt-secret`. No credentials needed: the mock is a test double.",
        security: NO_CREDENTIALS,
        body: TokenBody.schema,
        response: { 201: jsonAnswer('The token.', MintedToken), ...problemAnswers(...BODY_PROBLEMS) },
      },
      config: { fieldDetails: TokenBody.details },
      preValidation: parseJsonBody,
    },
    async (req, reply) => {
      const { org, permissions = [], roles = [], expiresIn } = req.body;
      const token = await mintToken(services.options.jwtSecret, { org, permissions, roles }, expiresIn);
      return send(reply, ok(201, { token }));
    },
  );
}
