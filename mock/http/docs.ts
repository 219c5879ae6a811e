import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { OpenAPIObject } from 'openapi3-ts/oas31';

/**
 * `/openapi.json` (the contract) and `/docs`, an interactive reference (Swagger UI) whose assets are served by the
 * mock itself, so it works offline; the online validator badge is turned off for the same reason.
 */
export async function registerDocs(app: FastifyInstance, document: OpenAPIObject): Promise<void> {
  const text = JSON.stringify(document);
  app.get('/openapi.json', { exposeHeadRoute: true }, (_req, reply) => reply.type('application/json; charset=utf-8').send(text));
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, validatorUrl: null, tryItOutEnabled: true } as never,
    staticCSP: false,
  });
}
