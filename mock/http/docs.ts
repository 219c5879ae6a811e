import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ORIGIN_VARY, requestOrigin } from './origin.js';
import { servedText, withOrigin } from './served-document.js';

/** Another OpenAPI document `/docs` shows beside the contract (e.g. the admin API's). */
export interface DocsSection {
  /** Its name in the definition selector of the page. */
  readonly name: string;
  /** Where the mock serves it (an absolute path). */
  readonly url: string;
}

/** The contract's name in the definition selector of `/docs`. */
export const CONTRACT_SECTION: DocsSection = { name: 'Operations Platform API (/openapi.json)', url: '/openapi.json' };

/**
 * `/openapi.json` (the contract) and `/docs`, an interactive reference (Swagger UI) whose assets are served by the
 * mock itself, so it works offline; the online validator badge is turned off for the same reason. Both name the
 * origin the caller used in `servers` (./origin.ts, ./served-document.ts), so "Try it out" calls this mock on
 * whatever port it listens. With `sections`, the page offers each document in its definition selector, the
 * contract first.
 */
export async function registerDocs(
  app: FastifyInstance,
  document: OpenAPIObject,
  sections: readonly DocsSection[] = [],
): Promise<void> {
  // Serialized on the first request, not at every start (~10 ms of CPU that most mocks never need).
  let text: ((origin: string) => string) | undefined;
  app.get('/openapi.json', { exposeHeadRoute: true }, (req, reply) => {
    text ??= servedText(document);
    return reply
      .header('vary', ORIGIN_VARY)
      .type('application/json; charset=utf-8')
      .send(text(requestOrigin(req)));
  });
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  const urls = [CONTRACT_SECTION, ...sections];
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      docExpansion: 'list',
      deepLinking: true,
      validatorUrl: null,
      tryItOutEnabled: true,
      ...(sections.length > 0 ? { urls, 'urls.primaryName': CONTRACT_SECTION.name } : {}),
    } as never,
    // `/docs/json` (the page's own copy of the contract, read when it shows one document) fits the origin too.
    transformSpecification: (spec, req, reply) => {
      reply.header('vary', ORIGIN_VARY);
      return withOrigin(spec as OpenAPIObject, requestOrigin(req));
    },
    transformSpecificationClone: false,
    staticCSP: false,
  });
}
