import { Type } from '@sinclair/typebox';
import { ORIGIN_VARY, requestOrigin } from '../../http/origin.js';
import { servedText } from '../../http/served-document.js';
import type { AdminContext, AdminInstance } from '../context.js';
import { jsonAnswer, NO_CREDENTIALS, TAG } from '../doc-parts.js';
import { ADMIN_DOCUMENT } from '../document.js';

const OpenApiDocument = Type.Object(
  { openapi: Type.String({ pattern: '^3\\.1\\.' }) },
  { description: 'An OpenAPI 3.1 document.' },
);

/**
 * `GET /__mock/openapi.json`: the admin API as OpenAPI 3.1, which @fastify/swagger builds from the schemas of the routes
 * of the admin plugin (../document-source.ts, ../document.ts). Built and serialized at the first request, once every
 * route exists, then kept; each answer names the caller's origin in `servers` (mock/http/served-document.ts), like
 * `/openapi.json`.
 */
export function registerDocument(admin: AdminInstance, context: AdminContext): void {
  let text: ((origin: string) => string) | undefined;
  admin.get(
    ADMIN_DOCUMENT.url,
    {
      schema: {
        operationId: 'mockAdminDocument',
        tags: [TAG.mock],
        summary: 'This document',
        description:
          'The admin API as OpenAPI 3.1, built from the schemas its routes validate requests with; `servers` names the origin it was requested from.',
        security: NO_CREDENTIALS,
        response: { 200: jsonAnswer('The document.', OpenApiDocument) },
      },
    },
    async (req, reply) => {
      text ??= servedText(await context.document());
      return (
        reply
          .header('vary', ORIGIN_VARY)
          .type('application/json; charset=utf-8')
          // Text serialized once (the typed reply expects the document as an object).
          .send(text(requestOrigin(req)) as never)
      );
    },
  );
}
