import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { OpenAPIObject, OperationObject, PathItemObject, SchemaObject } from 'openapi3-ts/oas31';
import { VERSION } from '../../common/version.js';
import { SCHEMAS } from '../../spec/components.js';
import { inferred } from '../../spec/provenance.js';
import { ADMIN_KEY_SCHEME, SECURITY_SCHEMES, TAG_DESCRIPTIONS, TEAM_KEY_SCHEME } from './doc-parts.js';

/** Where the admin API's own document is served (./routes/openapi.ts), and its name in `/docs`. */
export const ADMIN_DOCUMENT = { name: 'Mock admin API (/__mock/openapi.json)', url: '/__mock/openapi.json' } as const;

/** The mark of every operation of the document. */
const MARKS = inferred(
  'The reference does not know the admin API: it is the mock\'s own interface for tests (docs/DESIGN.md, "Admin API"), answering like the operations of the contract (Errors / Problem body).',
);

const DESCRIPTION = [
  "The mock's own API at `/__mock/*`, for tests and tools: tokens, per-tenant reset, virtual clock, sample records,",
  'request journal, webhook secret, events on demand, coverage. It is not part of the Operations Platform API and',
  'is turned off with `--no-admin`. Bodies are JSON; invalid ones get a 400 problem `COMMON.VALIDATION.ERROR` whose',
  '`parameters.field` names the first invalid member. JSON bodies nest at most 64 levels below their top-level',
  'members. Tenant-scoped routes take the tenant from the bearer token (or API key), like `/v1`; without valid',
  'credentials they answer the plain 401 before reading the body. The schemas here are the ones the routes validate',
  'requests with. A mock started with `--admin-key` (a shared one) wants the key in the `X-Admin-Key` header on',
  'every route but `/__mock/health`, this document included; without it or with a wrong one, it answers the plain',
  '401 with the challenge `AdminKey` before anything else. A team (`POST /__mock/teams`) sends its key in',
  "`X-Team-Key` instead: it mints tokens for its own orgs and calls their tenant-scoped routes; a tenant's own",
  '`App.Admin` bearer token alone reaches its tenant-scoped routes. Refused keys are throttled per source (429).',
].join('\n');

/** TypeBox values carry symbol keys; a JSON round trip leaves the plain JSON Schema. */
const plain = (schema: unknown): SchemaObject => JSON.parse(JSON.stringify(schema)) as SchemaObject;

/**
 * The document as @fastify/swagger leaves it, finished: the contract's Problem (and the ErrorCode it names) as the
 * contract writes them, which the problem answers refer to (swagger's own conversion would rewrite their
 * `patternProperties`); paths in order; and a request body required only when its schema requires a member, since
 * no body reads as `{}` (./validation.ts, parseJsonBody), where swagger calls every body required.
 */
function finish(document: OpenAPIObject): OpenAPIObject {
  const paths: Record<string, PathItemObject> = {};
  for (const path of Object.keys(document.paths ?? {}).sort()) {
    const item: Record<string, OperationObject> = { ...(document.paths?.[path] as Record<string, OperationObject>) };
    for (const [method, operation] of Object.entries(item)) {
      const body = operation.requestBody as { content?: Record<string, { schema?: SchemaObject }> } | undefined;
      if (!body?.content) continue;
      const required = Object.values(body.content).some((media) => (media.schema?.required ?? []).length > 0);
      item[method] = { ...operation, requestBody: { ...body, content: body.content, required } };
    }
    paths[path] = item;
  }
  const components = document.components ?? {};
  return {
    ...document,
    paths,
    components: {
      ...components,
      schemas: { ...components.schemas, Problem: plain(SCHEMAS.Problem), ErrorCode: plain(SCHEMAS.ErrorCode) },
    },
  };
}

/**
 * @fastify/swagger's options for the admin API's document: registered in the admin plugin's own context
 * (./plugin.ts), it sees the admin routes only, never the contract's operations (served apart as `/openapi.json`).
 * Each route says what it is in its route schema (./routes/); the document adds what holds for all of them. With
 * `keyed` (`--admin-key`), the admin key is declared too, and ./guard.ts makes every route it guards ask for it.
 */
export function adminSwaggerOptions(keyed: boolean): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'opsapi mock admin API',
        version: VERSION,
        description: DESCRIPTION,
        license: { name: 'MIT', identifier: 'MIT' },
      },
      tags: Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: { ...SECURITY_SCHEMES, ...(keyed ? { ...ADMIN_KEY_SCHEME, ...TEAM_KEY_SCHEME } : {}) },
      },
    },
    // OpenAPI 3.1 has `const`: the schemas stay the ones the routes validate with.
    convertConstToEnum: false,
    transform: ({ schema, url }) => ({ schema: { ...schema, ...MARKS }, url }),
    transformObject: (documentObject) =>
      finish((documentObject as { openapiObject: OpenAPIObject }).openapiObject) as never,
  };
}
