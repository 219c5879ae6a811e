import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { ORG_PATTERN } from '../../auth/org.js';
import { ok } from '../../handlers/context.js';
import { baseUrlOf, refOf } from '../../http/request-ref.js';
import { send } from '../../http/send.js';
import { codedProblem, plainProblem, type ProblemAnswer } from '../../problems.js';
import { DEFAULT_MAX_ORGS } from '../../teams/registry.js';
import type { AdminContext, AdminInstance } from '../context.js';
import {
  BODY_PROBLEMS,
  codedProblemDoc,
  emptyAnswer,
  jsonAnswer,
  NO_CREDENTIALS,
  problemAnswers,
  TAG,
} from '../doc-parts.js';
import { BODY_NOT_OBJECT, parseJsonBody, type Described } from '../validation.js';

/** `POST /__mock/teams`. */
const TeamBody = {
  schema: Type.Object({
    name: Type.String({ minLength: 1, maxLength: 200, description: 'what the operator calls the team' }),
    orgPrefix: Type.String({
      pattern: ORG_PATTERN.source,
      description: "what every org of the team starts with (an org's first characters); no other team's may overlap it",
    }),
    maxOrgs: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: `most of the team's orgs in memory at once (default ${DEFAULT_MAX_ORGS}); the sum over all teams stays within \`--max-tenants\``,
      }),
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    name: 'name must be a string of 1 to 200 characters.',
    orgPrefix: 'orgPrefix must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit.',
    maxOrgs: 'maxOrgs must be an integer of at least 1.',
  },
} satisfies Described<TSchema>;

const TeamParams = {
  schema: Type.Object({ id: Type.String({ description: 'the team id' }) }),
  details: {},
} satisfies Described<TSchema>;

const TeamFields = {
  id: Type.String({ description: 'the team id' }),
  name: Type.String(),
  orgPrefix: Type.String(),
  maxOrgs: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
};
const ShownTeam = Type.Object(TeamFields);
const CreatedTeam = Type.Object({
  ...TeamFields,
  teamKey: Type.String({ description: 'the key for `X-Team-Key`: shown here once, kept by the mock as a digest only' }),
});

/**
 * `/__mock/teams` (docs/DESIGN.md, "Team credentials (shared sandbox)"): the operator's teams, each bound to an org
 * prefix. Operator only (../access.ts). A prefix overlapping another team's is 409 (inferred: the teams' reach must not
 * overlap, and the catalog's code for an identity already taken says why); a `maxOrgs` that would take the sum over
 * `--max-tenants` is `COMMON.TENANT.PLAN_LIMIT_EXCEEDED` at the catalog's status (inferred: a limit of the sandbox's
 * capacity, naming it).
 */
export function registerTeams(admin: AdminInstance, { parts, services }: AdminContext): void {
  const { teams } = parts;
  /** A change is answered once kept (`--state`) and shared (`--redis`); 503 when it could not be (inferred). */
  const unkept = async (req: FastifyRequest): Promise<ProblemAnswer | null> => {
    try {
      await teams.settled();
      return null;
    } catch (error) {
      const detail = `The change of teams could not be kept: ${(error as Error).message}.`;
      return { ...plainProblem(503, detail, refOf(req)), headers: { 'retry-after': '1' } };
    }
  };
  admin.post(
    '/__mock/teams',
    {
      schema: {
        operationId: 'mockCreateTeam',
        tags: [TAG.mock],
        summary: 'Create a team',
        description:
          "A team key that mints tokens for the orgs starting with `orgPrefix` only, and reaches those orgs' tenant-scoped routes. The key is in this answer only.",
        security: NO_CREDENTIALS,
        body: TeamBody.schema,
        response: {
          201: jsonAnswer('The team, with its key.', CreatedTeam),
          ...problemAnswers(
            ...BODY_PROBLEMS,
            codedProblemDoc('COMMON.ENTITY.ALREADY_EXISTS', "another team's prefix overlaps `orgPrefix` (409)"),
            codedProblemDoc('COMMON.TENANT.PLAN_LIMIT_EXCEEDED', '`maxOrgs` would take the sum over `--max-tenants`'),
          ),
        },
      },
      config: { fieldDetails: TeamBody.details },
      preValidation: parseJsonBody,
    },
    async (req, reply) => {
      const created = teams.create(req.body, services.clock.now());
      if (created.ok) return send(reply, (await unkept(req)) ?? ok(201, { ...created.team, teamKey: created.teamKey }));
      const problem =
        created.reason === 'overlap'
          ? codedProblem(
              baseUrlOf(req),
              'COMMON.ENTITY.ALREADY_EXISTS',
              `The prefix '${req.body.orgPrefix}' overlaps the prefix '${created.other.orgPrefix}' of team '${created.other.id}': one starts with the other.`,
              refOf(req),
              { entity: 'Team', id: created.other.id },
              409,
            )
          : codedProblem(
              baseUrlOf(req),
              'COMMON.TENANT.PLAN_LIMIT_EXCEEDED',
              `maxOrgs ${created.asked} would take the teams' orgs over --max-tenants ${teams.maxTenants}: ${created.available} left.`,
              refOf(req),
              { limit: 'maxTenants' },
            );
      return send(reply, problem);
    },
  );
  admin.get(
    '/__mock/teams',
    {
      schema: {
        operationId: 'mockListTeams',
        tags: [TAG.mock],
        summary: 'List the teams',
        description: 'Every team, oldest first, without keys.',
        security: NO_CREDENTIALS,
        response: { 200: jsonAnswer('The teams.', Type.Object({ teams: Type.Array(ShownTeam) })) },
      },
    },
    async (_req, reply) => send(reply, ok(200, { teams: teams.list() })),
  );
  admin.delete(
    '/__mock/teams/:id',
    {
      schema: {
        operationId: 'mockRevokeTeam',
        tags: [TAG.mock],
        summary: 'Revoke a team',
        description:
          "Its key and every token it minted get the plain 401 from then on; the team's tenants and their data stay.",
        security: NO_CREDENTIALS,
        params: TeamParams.schema,
        response: { 204: emptyAnswer('Revoked.'), ...problemAnswers(codedProblemDoc('COMMON.ENTITY.NOT_FOUND')) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (teams.revoke(id)) return send(reply, (await unkept(req)) ?? ok(204));
      return send(
        reply,
        codedProblem(baseUrlOf(req), 'COMMON.ENTITY.NOT_FOUND', `Team '${id}' does not exist.`, refOf(req), {
          entity: 'Team',
          id,
        }),
      );
    },
  );
}
