import type {
  ComponentsObject,
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { OPERATIONS, type OperationDef } from './operations/index.js';
import { SCHEMAS } from './components.js';
import { LIST_PARAMETERS, RETRY_AFTER_HEADER, filterAndSortParameters } from './list-parameters.js';
import { buildLinks } from './operations/links.js';
import { payloadSchemas, webhookItems } from './webhooks.js';
import { ERROR_CATALOG, catalogEntry } from './errors/index.js';
import { documented, type Fact, factMarks } from './provenance.js';
import { referenceSentence } from './reference/index.js';
import { RFC9110_401_TYPE, plain401Type } from './schemas/problem.js';
import { KEY_WITH_BEARER } from './credentials.js';
import { BEHAVIOUR_DECISIONS } from './behaviour-decisions.js';

/** Version of the contract document (not of the API, which is `/v1`). */
export const CONTRACT_VERSION = '1.0.0';

const PROBLEM_MEDIA = 'application/problem+json';

/** The marks of a fact of the TypeScript definitions, under a prefix (`x-<prefix>-provenance`) or as the node's own. */
const marks = factMarks;

/** Endpoints: "Error responses follow the Errors part": every error response's body is a problem, whatever its status. */
const ERROR_BODY: Fact = { provenance: 'documented', quote: referenceSentence('endpoints.error-responses') };

/**
 * The marks of a success response: `x-provenance` is that of its status, `x-body-provenance` that of its body (the
 * schema, or `x-no-body`); a consumer reads "body documented, status inferred" as: any 2xx with this body meets the
 * reference, this status is the contract's.
 */
function successMarks(success: OperationDef['success']): Record<string, unknown> {
  return {
    ...marks(success),
    ...marks(success.body ?? success, 'body'),
    ...(success.schema === null ? { 'x-no-body': true } : {}),
  };
}

function toPlainSchema(schema: unknown): SchemaObject {
  // TypeBox values carry symbol keys; JSON round-trip leaves the plain JSON Schema.
  return JSON.parse(JSON.stringify(schema)) as SchemaObject;
}

function describeList(op: OperationDef): string {
  const list = op.list;
  if (!list) return '';
  const filterable = list.fields.filter((f) => f.filterable).map((f) => `\`${f.name}\` (${f.operators.join(', ')})`);
  const sortable = list.fields.filter((f) => f.sortable).map((f) => `\`${f.name}\``);
  return [
    '',
    `List parameters in the ${list.parametersIn === 'query' ? 'query string' : 'JSON body'}.`,
    `Filterable: ${filterable.join('; ')}.`,
    `Sortable: ${sortable.join(', ')}.`,
  ].join('\n');
}

/** The base address the examples name: the default of the `base_url` server variable (the local mock). */
const EXAMPLE_BASE_URL = 'http://127.0.0.1:4010';

/** The request line `instance` names for an operation's examples: its path with the example path parameters. */
function exampleInstance(op: OperationDef): string {
  const path = op.pathParams.reduce((p, param) => p.replace(`{${param.name}}`, String(param.example)), op.path);
  return `${op.method.toUpperCase()} ${path}`;
}

/**
 * The example body of the error responses whose body is fixed whatever the request: the plain 401 (Authentication,
 * point 3: no `code`) and the 429 (Limits: `COMMON.RATE_LIMIT.EXCEEDED` with `parameters: {}`). Without one, a viewer
 * such as Swagger UI draws a sample from the Problem schema (the first catalog code, status 400), which no 401 or 429
 * ever is. Other statuses carry several codes, each with its own parameters: they keep the schema alone.
 */
function problemExample(
  op: OperationDef,
  status: number,
  codes: readonly string[],
): Record<string, unknown> | undefined {
  const instance = exampleInstance(op);
  if (status === 401 && codes.length === 0)
    return {
      type: RFC9110_401_TYPE,
      title: 'Unauthorized',
      status: 401,
      detail: 'The request has no credentials: send Authorization: Bearer <token> or X-Api-Key.',
      instance,
    };
  if (status === 429 && codes.length === 1 && codes[0] === 'COMMON.RATE_LIMIT.EXCEEDED') {
    const entry = catalogEntry('COMMON.RATE_LIMIT.EXCEEDED');
    return {
      type: `${EXAMPLE_BASE_URL}/errors/${entry.code}`,
      title: entry.title,
      status: 429,
      detail: 'The request rate limit of the tenant is exceeded; retry after 1 s.',
      instance,
      code: entry.code,
      parameters: {},
    };
  }
  return undefined;
}

function buildOperation(op: OperationDef): OperationObject {
  const parameters: (ParameterObject | { $ref: string })[] = op.pathParams.map((p) => ({
    name: p.name,
    in: 'path',
    required: true,
    description: p.description,
    schema: toPlainSchema(p.schema),
    example: p.example,
    ...(p.quote ? documented(p.quote) : marks(op)),
  }));
  if (op.list?.parametersIn === 'query') {
    parameters.push({ $ref: '#/components/parameters/PageNumber' }, { $ref: '#/components/parameters/PageSize' });
    if (op.list.filterAndSort) parameters.push(...filterAndSortParameters(op.list.examples));
  }

  const responses: Record<string, ResponseObject> = {};
  const success = op.success;
  responses[String(success.status)] = {
    description: success.description,
    ...(success.schema
      ? { content: { 'application/json': { schema: { $ref: `#/components/schemas/${success.schema}` } } } }
      : {}),
    ...(success.links ? { links: buildLinks(success.links) } : {}),
    ...successMarks(success),
  };
  const exampleOf = (error: OperationDef['errors'][number]) => {
    const example = problemExample(op, error.status, error.codes);
    return example ? { example } : {};
  };
  for (const error of op.errors) {
    const codes = error.codes.length ? ` Codes: ${error.codes.map((c) => `\`${c}\``).join(', ')}.` : '';
    responses[String(error.status)] = {
      description: `${error.description}${codes}`,
      content: { [PROBLEM_MEDIA]: { schema: { $ref: '#/components/schemas/Problem' }, ...exampleOf(error) } },
      ...(error.status === 429 ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
      'x-error-codes': [...error.codes],
      ...(error.status === 401 && error.codes.length === 0 ? { 'x-problem-type': plain401Type() } : {}),
      ...marks(error),
      ...marks(ERROR_BODY, 'body'),
    };
  }

  const permissionText =
    op.permission.name === null
      ? 'Permission: none beyond authentication.'
      : `Permission: \`${op.permission.name}\` (role or permission).`;
  const result: OperationObject = {
    operationId: op.operationId,
    summary: op.summary,
    description: `${op.description}\n\n${permissionText}${describeList(op)}`,
    tags: [op.tag],
    // Two alternatives, not one AND requirement: the bearer token alone suffices (Authentication, point 1); what both
    // headers together mean is the inferred `x-with-bearer` rule of the ApiKey scheme (spec/credentials.ts).
    security: [{ JWTApiKey: [] }, { ApiKey: [] }],
    parameters,
    responses,
    ...marks(op),
    'x-permission': op.permission.name,
    ...marks(op.permission, 'permission'),
    ...marks(op.apiKey, 'api-key'),
  };
  if (op.requestBody) {
    result.requestBody = {
      required: true,
      description: op.requestBody.description,
      content: {
        'application/json': {
          schema: { $ref: `#/components/schemas/${op.requestBody.schema}` },
          example: op.requestBody.example,
        },
      },
      ...marks(op.requestBody),
    };
  }
  if (op.exampleRequires) result['x-example-requires'] = [...op.exampleRequires];
  if (op.list) {
    result['x-list'] = {
      parametersIn: op.list.parametersIn,
      item: op.list.item,
      'x-provenance': 'inferred',
      'x-rationale': op.list.fieldsRationale,
    };
    result['x-filterable'] = op.list.filterAndSort
      ? op.list.fields
          .filter((f) => f.filterable)
          .map((f) => ({
            field: f.name,
            type: f.type,
            nullable: f.nullable,
            operators: [...f.operators],
            ...(f.enumValues ? { enumValues: [...f.enumValues] } : {}),
          }))
      : [];
    result['x-sortable'] = op.list.filterAndSort ? op.list.fields.filter((f) => f.sortable).map((f) => f.name) : [];
  }
  return result;
}

const DESCRIPTION = [
  'The Operations Platform API: a multi-tenant HTTP/JSON interface to a manufacturing and warehouse operations system.',
  'This document is the contract of the opsapi kit. Every operation, response, schema property and catalog entry carries',
  '`x-provenance`: `documented` for what the API reference states (with the sentence it rests on in `x-reference-quote`),',
  '`inferred` (with `x-rationale`) for what the reference leaves open ("not shown") and this kit decided. A fact beside the',
  'node carries the same marks under its name: `x-permission-provenance`, `x-body-provenance` (a success body the reference',
  'gives under a status it does not give), `x-minimum-provenance` (a keyword the reference does not state). Conformance',
  'checks enforce documented facts as MUST and inferred ones as SHOULD.',
  '',
  'Errors are problem bodies (`type`, `title`, `status`, `detail`, `instance`, `code`, `parameters`); the plain 401 has no `code`',
  `and its \`type\` is an address of RFC 9110 section 15.5.2 (the contract's: ${RFC9110_401_TYPE}). The complete error catalog is in \`x-error-catalog\` and served by GET /v1/errors/{errorCode}.`,
  '',
  'Examples are real identifiers of the world the mock seeds for tenant `demo` with its defaults (`npm start`): each example',
  'request, sent to a fresh `demo` tenant, succeeds. An operation whose examples address a record created at run time names',
  'the operations whose examples must run before it in `x-example-requires`. Response `links` chain the calls a client walks.',
].join('\n');

/** The tags of the operations, in the order the document lists them. */
const TAGS: Record<string, string> = {
  Access: 'API keys.',
  Notifications: 'Webhook subscriptions, stored notifications and their delivery attempts.',
  Events: 'Event discovery: the event names and versions of the environment.',
  Items: 'Catalog: SKUs, stock, inspections, families.',
  Maintenance: 'Maintenance assets.',
  Admin: "The caller's tenant.",
  Planning: 'Purchase orders.',
  Errors: 'The error code catalog.',
  Webhooks: 'Requests the service sends to subscribers.',
};

/**
 * Assembles the OpenAPI 3.1 document from the TypeScript definitions. Pure: same input, same document.
 *
 * A plain object, its members in the order of the committed document (spec/test/drift.test.ts compares the two): the
 * order openapi3-ts's OpenApiBuilder gave it, whose module also loads a YAML library at every start of the mock and
 * of every command that reads the contract (~34 ms of CPU each, measured on the compiled CLI); only its types are used.
 */
export function buildDocument(): OpenAPIObject {
  const components = {
    schemas: {} as Record<string, SchemaObject>,
    responses: {},
    parameters: {} as Record<string, ParameterObject>,
    examples: {},
    requestBodies: {},
    headers: {} as NonNullable<ComponentsObject['headers']>,
    securitySchemes: {} as NonNullable<ComponentsObject['securitySchemes']>,
    links: {},
    callbacks: {},
  } satisfies ComponentsObject;
  const pathItems: Record<string, Record<string, OperationObject>> = {};
  const doc: OpenAPIObject = {
    openapi: '3.1.0',
    info: {
      title: 'Operations Platform API',
      version: CONTRACT_VERSION,
      description: DESCRIPTION,
      contact: { name: 'opsapi contract kit' },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    paths: pathItems,
    components,
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    servers: [
      {
        url: '{base_url}',
        description: 'The service base address; every path starts with /v1.',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:4010',
            description: 'base address of the deployment (the local mock by default)',
          },
        },
      },
    ],
  };

  components.securitySchemes.JWTApiKey = {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      '`Authorization: Bearer <ACCESS_TOKEN>` (a JWT). How a JWT is obtained is not shown by the reference; the mock mints HS256 tokens with claims `org`, `permissions`, `roles`, `exp`.',
    ...documented('auth.1.bearer'),
  };
  components.securitySchemes.ApiKey = {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description:
      "The `key` returned by POST /v1/access/apiKeys. Documented for list requests; accepted on every operation with the tenant and permissions of the key's creator (inferred). When both credentials are sent, both must be valid and of the same tenant, except that an X-Api-Key equal to the bearer token is the same credential sent twice and is accepted (inferred, `x-with-bearer`).",
    ...documented('auth.2.api-key'),
    'x-with-bearer': { ...KEY_WITH_BEARER },
  };

  for (const [name, schema] of Object.entries(SCHEMAS)) components.schemas[name] = toPlainSchema(schema);
  for (const [name, schema] of Object.entries(payloadSchemas())) components.schemas[name] = schema;
  for (const [name, parameter] of Object.entries(LIST_PARAMETERS)) components.parameters[name] = parameter;
  components.headers.RetryAfter = { ...RETRY_AFTER_HEADER };

  const paths = new Map<string, Record<string, OperationObject>>();
  for (const op of OPERATIONS) {
    const item = paths.get(op.path) ?? {};
    item[op.method] = buildOperation(op);
    paths.set(op.path, item);
  }
  for (const path of [...paths.keys()].sort()) pathItems[path] = paths.get(path) ?? {};
  doc.webhooks = webhookItems();

  doc['x-error-catalog'] = ERROR_CATALOG.map((entry) => ({
    code: entry.code,
    title: entry.title,
    description: entry.description,
    parameters: entry.parameters,
    status: entry.status,
    ...documented(entry.quote),
    // Documented texts quote the sentence that states the condition; their rationale says what is named here besides.
    ...(entry.textQuote
      ? marks({ provenance: 'documented', quote: entry.textQuote }, 'text')
      : { 'x-text-provenance': entry.textProvenance }),
    ...(entry.textRationale ? { 'x-text-rationale': entry.textRationale } : {}),
    ...(entry.textConditionQuote ? { 'x-text-condition-quote': entry.textConditionQuote.text } : {}),
    ...(entry.statusQuote
      ? marks({ provenance: 'documented', quote: entry.statusQuote }, 'status')
      : marks({ provenance: 'inferred', rationale: entry.statusRationale ?? '' }, 'status')),
  }));
  doc['x-behaviour'] = BEHAVIOUR_DECISIONS;
  return doc;
}
