import { Type, type TSchema } from '@sinclair/typebox';
import { ORG_PATTERN } from '../../auth/org.js';
import { mintToken } from '../../auth/tokens.js';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import type { AdminContext, AdminInstance } from '../context.js';
import { BODY_PROBLEMS, jsonAnswer, NO_CREDENTIALS, problemAnswers, TAG } from '../doc-parts.js';
import { forbidden } from '../guard.js';
import { BODY_NOT_OBJECT, invalid, parseJsonBody, type Described } from '../validation.js';

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

/**
 * `POST /__mock/tokens`: the operator mints a token for any org (no credentials on a mock without `--admin-key`: the
 * mock is a test double). A team (`X-Team-Key`, docs/DESIGN.md, "Team credentials (shared sandbox)") mints for the orgs
 * starting with its prefix only (403 otherwise, whether or not the org exists), for at most `--team-token-lifetime`
 * (also its default), and its tokens carry the team, so revoking the team ends them.
 */
export function registerTokens(admin: AdminInstance, { services, parts }: AdminContext): void {
  admin.post(
    '/__mock/tokens',
    {
      schema: {
        operationId: 'mockMintToken',
        tags: [TAG.mock],
        summary: 'Mint an access token',
        description:
          "An HS256 JWT for any org, with the permissions and roles asked for (none by default), signed with the mock's `--jwt-secret`. No credentials needed on a mock without `--admin-key`: the mock is a test double. With a team key, only for the team's orgs, for at most `--team-token-lifetime` (its default too); the token carries the team and ends when the team is revoked.",
        security: NO_CREDENTIALS,
        body: TokenBody.schema,
        response: { 201: jsonAnswer('The token.', MintedToken), ...problemAnswers(...BODY_PROBLEMS) },
      },
      config: { fieldDetails: TokenBody.details },
      preValidation: parseJsonBody,
    },
    async (req, reply) => {
      const { org, permissions = [], roles = [], expiresIn } = req.body;
      const caller = req.adminCaller;
      if (caller?.kind !== 'team') {
        const token = await mintToken(services.options.jwtSecret, { org, permissions, roles }, expiresIn);
        return send(reply, ok(201, { token }));
      }
      const { team } = caller;
      if (!org.startsWith(team.orgPrefix))
        return send(reply, forbidden(req, `A team key mints tokens for orgs starting with '${team.orgPrefix}' only.`));
      const longest = parts.teamTokenSeconds;
      if (expiresIn !== undefined && expiresIn > longest)
        return invalid(
          req,
          reply,
          `expiresIn must be at most ${longest} seconds for a token a team mints.`,
          'expiresIn',
        );
      const claims = { org, permissions, roles, team: team.id };
      const token = await mintToken(services.options.jwtSecret, claims, expiresIn ?? longest);
      return send(reply, ok(201, { token }));
    },
  );
}
