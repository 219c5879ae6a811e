import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
const CONTRACT_SECTION: DocsSection = { name: 'Operations Platform API (/openapi.json)', url: '/openapi.json' };

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
  // The page and its assets come from an instance of their own, built on the first `/docs` request: Swagger UI's
  // plugins cost ~60 ms of every start (loading and registering them; measured on the compiled CLI) that most mocks
  // never need. Answers pass through this instance's hooks (CORS, journal, error pages) as any other.
  let docs: Promise<FastifyInstance> | undefined;
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    docs ??= docsApp(document, sections);
    // Split by hand: a URL object drops a default port the caller wrote (`:80`), which the page keeps.
    const origin = requestOrigin(req);
    const scheme = origin.indexOf('://');
    const answer = await (await docs).inject({
      // A HEAD is asked as a GET: Fastify's HEAD route of this instance drops the body and keeps its length.
      method: 'GET',
      url: req.url,
      headers: {
        ...req.headers,
        // The page names the origin the caller used, as this instance sees it (./origin.ts).
        'x-forwarded-proto': origin.slice(0, scheme),
        'x-forwarded-host': origin.slice(scheme + 3),
      },
    });
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !SET_HERE.has(name)) reply.header(name, value);
    reply.code(answer.statusCode);
    return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
  };
  app.get('/docs', forward);
  app.get('/docs/*', forward);
}

/** Headers of the inner answer this instance sets itself (connection handling, length, date). */
const SET_HERE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

/** The page's title: the kit's name, not the viewer's. */
const DOCS_TITLE = 'opsapi: Operations Platform API';

/**
 * The top bar's logo: the kit's name as text, in place of the viewer's own (its default would show Swagger's and
 * Fastify's marks on a page that documents neither). It links nowhere: the page is the whole reference a mock serves.
 */
const DOCS_LOGO_SVG = [
  '<svg xmlns="http://www.w3.org/2000/svg" width="260" height="40" viewBox="0 0 260 40" role="img" aria-label="opsapi">',
  '<text x="0" y="29" font-family="system-ui, sans-serif" font-size="26" font-weight="700" fill="#ffffff">opsapi</text>',
  '<text x="92" y="29" font-family="system-ui, sans-serif" font-size="14" fill="#cfd8dc">contract kit</text>',
  '</svg>',
].join('');

/** The Swagger UI instance of `/docs` (@fastify/swagger in static mode and @fastify/swagger-ui). */
async function docsApp(document: OpenAPIObject, sections: readonly DocsSection[]): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const app = Fastify({ logger: false });
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  const urls = [CONTRACT_SECTION, ...sections];
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    logo: { type: 'image/svg+xml', content: DOCS_LOGO_SVG },
    theme: { title: DOCS_TITLE },
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
  await app.ready();
  return app;
}
