import { Type, type TNull, type TSchema } from '@sinclair/typebox';
import { catalogEntry, type ErrorCode } from '../../spec/errors/index.js';

/**
 * Pieces the admin routes' documentation shares (docs/DESIGN.md, "Admin API"): each route states its own docs in its
 * route schema (./routes/), from which @fastify/swagger builds `/__mock/openapi.json` (./document.ts); what several
 * routes say alike is here. Inferred throughout: the reference does not know the admin API.
 */

/** The tags of the document: the mock process itself, and the caller's tenant. */
export const TAG = { mock: 'Mock', tenant: 'Tenant' } as const;

export const TAG_DESCRIPTIONS: Readonly<Record<(typeof TAG)[keyof typeof TAG], string>> = {
  Mock: 'The mock process: health, figures, tokens, this document.',
  Tenant: "The caller's tenant: reset, clock, sample records, journal, webhooks, coverage.",
};

/** How a caller proves who it is: a tenant's credentials, as on `/v1`. */
export const SECURITY_SCHEMES = {
  JWTApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A token of the tenant (POST /__mock/tokens), as on `/v1`.',
  },
  ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key of the tenant, as on `/v1`.' },
} as const;

/** The admin key of a mock started with `--admin-key` (./guard.ts): declared only by such a mock's document. */
export const ADMIN_KEY_SCHEME = {
  AdminKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Admin-Key',
    description:
      "The mock's admin key (`--admin-key`): every route but `/__mock/health` wants it, before anything else.",
  },
} as const;

/** A team's key (docs/DESIGN.md, "Team credentials (shared sandbox)"): declared, like the admin key, by a keyed mock's document. */
export const TEAM_KEY_SCHEME = {
  TeamKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Team-Key',
    description:
      "A team's key (`POST /__mock/teams`): tokens for the team's orgs, and the tenant-scoped routes of those orgs only.",
  },
} as const;

/** A route's `security`: alternatives, each the schemes it needs together (`{}`: none). */
type SecurityRequirements = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;

/** The route needs no credentials (a mock with `--admin-key` still wants the key: ./guard.ts adds it). */
export const NO_CREDENTIALS: SecurityRequirements = [];

/** The route authenticates the caller's tenant before anything else: its `preValidation` has `scoped` (../context.ts). */
export const TENANT_CREDENTIALS: SecurityRequirements = [{ JWTApiKey: [] }, { ApiKey: [] }];

/** The route reads credentials itself and works without them too. */
export const OPTIONAL_TENANT_CREDENTIALS: SecurityRequirements = [{}, ...TENANT_CREDENTIALS];

/** The last sentence of every tenant-scoped route's description. */
export const TENANT_NOTE = "The caller's tenant is the one of its bearer token (or API key), as on `/v1`.";

/** A success answer with a JSON body. */
export function jsonAnswer<S extends TSchema>(
  description: string,
  schema: S,
): { description: string; content: { 'application/json': { schema: S } } } {
  return { description, content: { 'application/json': { schema } } };
}

/** A success answer without a body (204): @fastify/swagger documents a `null` schema as no content. */
export function emptyAnswer(description: string): TNull {
  return Type.Null({ description });
}

/** A problem a route answers: its status and what it means on that route. */
export type ProblemDoc = readonly [status: number, text: string];

export const INVALID_REQUEST: ProblemDoc = [
  400,
  '`COMMON.VALIDATION.ERROR`: the body or query is not valid; `detail` and `parameters.field` name the first invalid member.',
];

export const NO_TENANT: ProblemDoc = [401, 'The plain 401 (no `code`): no valid credentials for a tenant.'];

/** What a route with a JSON body answers besides its own problems: the schema's 400, the app's body parsing 413 and 415. */
export const BODY_PROBLEMS: readonly ProblemDoc[] = [
  INVALID_REQUEST,
  [413, 'The body is larger than `--body-limit` (no `code`).'],
  [415, 'The body is not JSON (no `code`).'],
];

/** A coded problem of the catalog, at the status the catalog gives it. */
export function codedProblemDoc(code: ErrorCode, when?: string): ProblemDoc {
  return [catalogEntry(code).status, `\`${code}\`${when ? `: ${when}` : ''}.`];
}

/** One problem answer: a Problem of the contract (./document.ts puts the schema in the components). */
function problemAnswer(description: string) {
  return {
    description,
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

type ProblemAnswerDoc = ReturnType<typeof problemAnswer>;

/** The problem answers of a route by status; the texts of one status are joined (a 400 may have several causes). */
export function problemAnswers(...docs: readonly ProblemDoc[]): Record<number, ProblemAnswerDoc> {
  return docs.reduce<Record<number, ProblemAnswerDoc>>((out, doc) => withProblem(out, doc), {});
}

/** A route's answers with one more problem, joined to the text of an answer of the same status. */
export function withProblem<R extends Record<number, unknown>>(
  response: R,
  [status, text]: ProblemDoc,
): R & Record<number, ProblemAnswerDoc> {
  const before = (response[status] as { description?: string } | undefined)?.description;
  return { ...response, [status]: problemAnswer(before ? `${before} ${text}` : text) };
}
