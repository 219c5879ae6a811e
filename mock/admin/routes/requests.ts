import { Type } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import {
  emptyAnswer,
  jsonAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';

const JournalEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time', description: 'tenant time of the request' }),
    method: Type.String(),
    path: Type.String(),
    query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
      description: 'the query string parsed (a repeated parameter is a list)',
    }),
    queryString: Type.String({ description: 'the query string as sent, without `?`' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'request headers, credentials redacted' }),
    body: Type.Unknown({
      description: 'the request body (one over 4,096 characters as an excerpt of its text, the first 4,096 characters)',
    }),
    status: Type.Integer(),
    code: Type.Optional(Type.String({ description: 'the problem `code` of the answer, when it had one' })),
    operationId: Type.Union([Type.String(), Type.Null()], {
      description: 'the operation of the contract, null for other routes',
    }),
    durationMs: Type.Number({ minimum: 0 }),
    truncated: Type.Optional(
      Type.Array(Type.Union([Type.Literal('url'), Type.Literal('headers'), Type.Literal('body')]), {
        description:
          'what was cut to the bounds of an entry: the URL beyond 2,048 characters, a header value beyond 512 or the headers beyond 2,048 together, the body beyond 4,096; absent when nothing was',
      }),
    ),
    injected: Type.Optional(
      Type.Literal(true, {
        description: 'a 429 the client checks injected (profile `certify`), not an answer of the API; absent otherwise',
      }),
    ),
  },
  {
    description:
      'One request as the tenant sent it and the status it got; credentials (`Authorization`, `X-Api-Key`, `X-Admin-Key`, `X-Team-Key`, cookies) redacted.',
  },
);

const Journal = Type.Object({ requests: Type.Array(JournalEntry, { description: 'oldest first' }) });

/** `GET` and `DELETE /__mock/requests`: the tenant's request journal (mock/store/journal.ts), read or cleared. */
export function registerRequests(admin: AdminInstance, { scoped }: AdminContext): void {
  admin.get(
    '/__mock/requests',
    {
      schema: {
        operationId: 'mockRequests',
        tags: [TAG.tenant],
        summary: "The tenant's request journal",
        description: `The tenant's most recent requests, oldest first (like WireMock's request log), credentials redacted. Every request is recorded (never sampled); the oldest are dropped beyond \`--journal-entries\` entries or \`--journal-kb\` KB, and each entry's URL, headers and body are cut to bounds of their own. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        response: { 200: jsonAnswer('The journal.', Journal), ...problemAnswers(NO_TENANT) },
      },
      preValidation: scoped,
    },
    async (req, reply) => send(reply, ok(200, { requests: tenantOf(req).journal.list() })),
  );

  admin.delete(
    '/__mock/requests',
    {
      schema: {
        operationId: 'mockClearRequests',
        tags: [TAG.tenant],
        summary: "Clear the tenant's request journal",
        description: TENANT_NOTE,
        security: TENANT_CREDENTIALS,
        response: { 204: emptyAnswer('Cleared.'), ...problemAnswers(NO_TENANT) },
      },
      preValidation: scoped,
    },
    async (req, reply) => {
      tenantOf(req).journal.clear();
      return send(reply, ok(204));
    },
  );
}
