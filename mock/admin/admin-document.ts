import {
  OpenApiBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
  type ResponsesObject,
  type SchemaObject,
  type SecurityRequirementObject,
} from 'openapi3-ts/oas31';
import { VERSION } from '../../common/version.js';
import { SCHEMAS } from '../../spec/components.js';
import { catalogEntry } from '../../spec/errors/index.js';
import { inferred } from '../../spec/provenance.js';
import { ROUTE_DOCS, type RouteDoc } from './route-docs.js';

/** An admin route as Fastify registered it: what the document is built from. */
export interface AdminRoute {
  readonly method: string;
  /** Fastify's form: `/__mock/api-keys/:id`. */
  readonly url: string;
  /** The TypeBox schemas the route validates its request with. */
  readonly schema?: {
    readonly body?: unknown;
    readonly querystring?: unknown;
    readonly params?: unknown;
    readonly response?: unknown;
  };
  /** Whether the route authenticates the caller's tenant before anything else (its `preValidation` hook). */
  readonly tenantScoped: boolean;
}

const RATIONALE =
  'The reference does not know the admin API: it is the mock\'s own interface for tests (docs/DESIGN.md, "Admin API"), answering like the operations of the contract (Errors / Problem body).';

const DESCRIPTION = [
  "The mock's own API at `/__mock/*`, for tests and tools: tokens, per-tenant reset, virtual clock, sample records,",
  'request journal, webhook secret, events on demand, coverage. It is not part of the Operations Platform API and',
  'is turned off with `--no-admin`. Bodies are JSON; invalid ones get a 400 problem `COMMON.VALIDATION.ERROR` whose',
  '`parameters.field` names the first invalid member. JSON bodies nest at most 64 levels below their top-level',
  'members. Tenant-scoped routes take the tenant from the bearer token (or API key), like `/v1`; without valid',
  'credentials they answer the plain 401 before reading the body. The schemas here are the ones the routes validate',
  'requests with. A mock started with `--admin-key` (a shared one) wants the key in the `X-Admin-Key` header on',
  'every route but `/__mock/health`, this document included; without it or with a wrong one, it answers the plain',
  '401 with the challenge `AdminKey` before anything else.',
].join('\n');

/** TypeBox values carry symbol keys; a JSON round trip leaves the plain JSON Schema. */
function plain(schema: unknown): SchemaObject {
  return JSON.parse(JSON.stringify(schema)) as SchemaObject;
}

function problem(description: string): ResponseObject {
  return { description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
}

/** The members of an object schema as parameters (`in: path` ones are always required, as OpenAPI wants). */
function parameters(schema: unknown, where: 'path' | 'query'): ParameterObject[] {
  const object = plain(schema);
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property as SchemaObject,
  }));
}

/** The route's entry of ROUTE_DOCS, or a bare one that still shows the route (and its schemas). */
function docOf(route: AdminRoute): RouteDoc {
  const known = ROUTE_DOCS[`${route.method} ${route.url}`];
  if (known) return known;
  const words = `${route.method} ${route.url.replace(/^\/__mock\//, '')}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const operationId = `mock${words.map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1).toLowerCase()}`).join('')}`;
  return {
    operationId,
    tag: 'Mock',
    summary: `${route.method} ${route.url}`,
    success: { status: 200, description: 'Answered.' },
  };
}

function responses(route: AdminRoute, doc: RouteDoc): ResponsesObject {
  const { status, description } = doc.success;
  // A response schema the route serializes with wins over the table's.
  const schema =
    (route.schema?.response as Record<string, unknown> | undefined)?.[String(status)] ?? doc.success.schema;
  const out: ResponsesObject = {
    [String(status)]: {
      description,
      ...(schema ? { content: { 'application/json': { schema: plain(schema) } } } : {}),
    },
  };
  const problems = new Map<number, string[]>();
  const add = (s: number, text: string) => problems.set(s, [...(problems.get(s) ?? []), text]);
  if (route.schema?.body || route.schema?.querystring)
    add(
      400,
      '`COMMON.VALIDATION.ERROR`: the body or query is not valid; `detail` and `parameters.field` name the first invalid member.',
    );
  if (route.tenantScoped || doc.auth === 'optional')
    add(401, 'The plain 401 (no `code`): no valid credentials for a tenant.');
  for (const code of doc.codes ?? []) add(catalogEntry(code).status, `\`${code}\`.`);
  if (route.schema?.body) {
    add(413, 'The body is larger than `--body-limit` (no `code`).');
    add(415, 'The body is not JSON (no `code`).');
  }
  for (const [s, texts] of [...problems].sort(([a], [b]) => a - b)) out[String(s)] = problem(texts.join(' '));
  return out;
}

function security(route: AdminRoute, doc: RouteDoc): SecurityRequirementObject[] {
  const credentials: SecurityRequirementObject[] = [{ JWTApiKey: [] }, { ApiKey: [] }];
  if (doc.auth === 'optional') return [{}, ...credentials];
  return route.tenantScoped ? credentials : [];
}

function operation(route: AdminRoute): OperationObject {
  const doc = docOf(route);
  const params = [
    ...(route.schema?.params ? parameters(route.schema.params, 'path') : []),
    ...(route.schema?.querystring ? parameters(route.schema.querystring, 'query') : []),
  ];
  const body = route.schema?.body ? plain(route.schema.body) : undefined;
  return {
    operationId: doc.operationId,
    tags: [doc.tag],
    summary: doc.summary,
    description: doc.description ?? doc.summary,
    ...(params.length > 0 ? { parameters: params } : {}),
    // No body reads as `{}`: a body is required only when its schema requires a member.
    ...(body
      ? {
          requestBody: {
            required: (body.required ?? []).length > 0,
            content: { 'application/json': { schema: body } },
          },
        }
      : {}),
    responses: responses(route, doc),
    security: security(route, doc),
    ...inferred(RATIONALE),
  };
}

/**
 * The admin API as an OpenAPI 3.1 document, built from its registered routes: their request schemas are the TypeBox
 * schemas Fastify validates with, so the document and the validation cannot disagree. Pure: same routes, same
 * document. HEAD routes (Fastify's automatic twins of GET) are left out.
 */
export function buildAdminDocument(routes: readonly AdminRoute[]): OpenAPIObject {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addTitle('opsapi mock admin API')
    .addVersion(VERSION)
    .addDescription(DESCRIPTION)
    .addLicense({ name: 'MIT', identifier: 'MIT' })
    .addTag({ name: 'Mock', description: 'The mock process: health, figures, tokens, this document.' })
    .addTag({
      name: 'Tenant',
      description: "The caller's tenant: reset, clock, sample records, journal, webhooks, coverage.",
    })
    .addSecurityScheme('JWTApiKey', {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'A token of the tenant (POST /__mock/tokens), as on `/v1`.',
    })
    .addSecurityScheme('ApiKey', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
      description: 'An API key of the tenant, as on `/v1`.',
    })
    .addSchema('Problem', plain(SCHEMAS.Problem))
    .addSchema('ErrorCode', plain(SCHEMAS.ErrorCode));
  const paths = new Map<string, Record<string, OperationObject>>();
  for (const route of routes) {
    if (route.method === 'HEAD') continue;
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    paths.set(path, { ...paths.get(path), [route.method.toLowerCase()]: operation(route) });
  }
  for (const path of [...paths.keys()].sort()) builder.addPath(path, paths.get(path) ?? {});
  return builder.getSpec();
}
