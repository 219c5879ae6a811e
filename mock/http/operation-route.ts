import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationDef } from '../../spec/operations/index.js';
import type { Handler } from '../handlers/context.js';
import { operationBodyLimit } from './body-limits.js';
import { openExchange, type OperationRoute } from './exchange.js';
import { answerThrough, FAITHFUL_PATH } from './request-path.js';
import { send } from './send.js';
import { cachedSerializerCompiler } from './serializers.js';
import type { MockServices } from './services.js';

/**
 * Registers one operation of the contract: each request opens an exchange, goes through the request path
 * (./request-path.ts) until a step answers, and the answer is sent.
 */
export function registerOperation(
  app: FastifyInstance,
  op: OperationDef,
  handler: Handler,
  services: MockServices,
  response?: Record<string, unknown>,
): void {
  const route: OperationRoute = {
    op,
    handler,
    services,
    bodySchema: op.requestBody?.schema,
    declares400: op.errors.some((e) => e.status === 400),
  };
  app.route({
    method: op.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: op.path.replace(/\{(\w+)\}/g, ':$1'),
    bodyLimit: operationBodyLimit(op, services.validator.document, services.options.bodyLimit),
    config: { operationRoute: route },
    ...(response ? { schema: { response }, serializerCompiler: cachedSerializerCompiler } : {}),
    // Not an async function: an answer found without waiting is sent at once, with no promise for Fastify to settle
    // (a sync handler that sent its reply returns nothing); one that waits is sent when it is found.
    handler: (req: FastifyRequest, reply: FastifyReply) => {
      req.operationId = op.operationId;
      const answer = answerThrough(FAITHFUL_PATH, openExchange(req, reply, route), route);
      if (answer instanceof Promise) return answer.then((a) => send(reply, a));
      send(reply, answer);
      return undefined;
    },
  });
}
