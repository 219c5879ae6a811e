import cors from '@fastify/cors';
import { CORS, corsHeadersOf } from './cors.js';
import { capConnections, connectionSettings } from './connection-limits.js';
import Fastify, { type FastifyInstance, type FastifyError } from 'fastify';
import { OPERATIONS } from '../../spec/operations/index.js';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { plainProblem, codedProblem, unauthorized } from '../problems.js';
import { repeatedCredential } from './repeated-credentials.js';
import { lingerWhenBodyUnread } from './lingering-close.js';
import type { Handler } from '../handlers/context.js';
import { registerOperation } from './operation-route.js';
import { baseUrlOf, refOf } from './request-ref.js';
import { allowedMethods } from './route-table.js';
import { send } from './send.js';
import { sendUnreadRefusal } from './unread-refusal.js';
import { decorateApp, sendFrameworkProblem, type AppDecorator } from './decorator.js';
import { successSerializerSchema } from './serializers.js';
import type { MockServices, ShellOptions } from './services.js';
import { registerDocs, type DocsSection } from './docs.js';
import { registerErrorPages } from './error-pages.js';
import type { onRequestHookHandler, onResponseHookHandler, onSendHookHandler } from 'fastify';

/**
 * JSON media types whose bodies the mock reads (as text; parsed after authentication). Fastify tests the pattern
 * against the normalised header with its parameters (`application/json; charset="utf-8"`), so they are allowed.
 */
const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json(?:;.*)?$/;

/**
 * What the composition root (mock/server.ts) hangs on the shell besides its decorators: hooks that record answers
 * (durability, journal, coverage), added before any route so every route runs them, and further documents the docs
 * page offers. The shell runs them without knowing what they record.
 */
interface ShellAdditions {
  readonly decorator?: AppDecorator | undefined;
  /** Hooks run first on every request, before CORS answers a preflight (./site-guard.ts). */
  readonly onRequest?: readonly onRequestHookHandler[];
  readonly onSend?: readonly onSendHookHandler[];
  readonly onResponse?: readonly onResponseHookHandler[];
  /** Further documents the `/docs` page offers beside the contract (./docs.ts). */
  readonly docsSections?: readonly DocsSection[];
}

/**
 * The HTTP shell: Fastify with the contract's operations, the docs, CORS, and problem bodies for every error (never
 * a bare 500, never a crash). Routes of its own (the admin API) are registered on the returned app by the caller.
 */
export async function buildApp(
  services: MockServices,
  handlers: Record<string, Handler>,
  document: OpenAPIObject,
  additions: ShellAdditions = {},
): Promise<FastifyInstance> {
  const { decorator } = additions;
  const { options } = services;
  const limits = connectionSettings(options);
  const app = Fastify({
    // stderr (as --log-requests says): stdout carries only what the CLI prints (`--print-json`: one JSON line).
    logger: options.logRequests ? { level: 'info', stream: process.stderr } : false,
    bodyLimit: options.bodyLimit,
    routerOptions: { maxParamLength: 1000, caseSensitive: true, ignoreTrailingSlash: false },
    forceCloseConnections: true,
    return503OnClosing: true,
    keepAliveTimeout: limits.keepAliveTimeout,
    requestTimeout: limits.requestTimeout,
    // Node would answer a Host-less HTTP/1.1 request itself with an empty 400; the onRequest hook below answers it with a problem.
    http: { requireHostHeader: false, ...limits.http },
    // Errors of the router itself (an undecodable or over-long path segment) get a problem body too, not Fastify's own JSON.
    // Such a segment addresses nothing: a plain 404 (a status every operation may answer).
    frameworkErrors: (error, req, reply) => {
      const ref = refOf(req);
      const answer =
        error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? plainProblem(
              404,
              `No resource answers ${ref.method} ${ref.path}: a path segment is not valid percent-encoding or is too long.`,
              ref,
            )
          : plainProblem(400, error.message, ref);
      corsHeadersOf(req, reply);
      void sendFrameworkProblem(req, reply, answer, decorator);
    },
    clientErrorHandler: (error, socket) => {
      // Malformed HTTP never reaches a route; it still gets a problem body (400, or 431 for oversized headers), and a
      // request that did not arrive within --headers-timeout or --request-timeout a 408 (./connection-limits.ts).
      if (!socket.writable) return;
      const answer = clientErrorAnswer((error as { code?: string }).code);
      const body = JSON.stringify({
        type: `https://www.rfc-editor.org/rfc/rfc9110#section-${answer.section}`,
        title: answer.title,
        status: answer.status,
        detail: answer.detail,
        instance: 'INVALID /',
      });
      socket.end(
        `HTTP/1.1 ${answer.status} ${answer.title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });

  capConnections(app.server, options);
  // First of all: a request refused here costs nothing further (no Redis round trip of a replica's gate).
  for (const hook of additions.onRequest ?? []) app.addHook('onRequest', hook);
  decorateApp(app, decorator);

  app.removeAllContentTypeParsers();
  // Bodies are kept as text and parsed after authentication, so an anonymous bad body still gets the 401.
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_req, body, done) => done(null, body));

  await app.register(cors, CORS);

  // A callback hook, not an async one (a promise per request); one that answers does not call `done` (Fastify, "Hooks").
  app.addHook('onRequest', (req, reply, done) => {
    if (req.raw.httpVersion === '1.1' && req.headers.host === undefined) {
      send(reply, plainProblem(400, 'An HTTP/1.1 request needs a Host header.', refOf(req)));
      return;
    }
    // Before any route reads one of them (./repeated-credentials.ts): the plain 401 of a request without valid credentials.
    const repeated = repeatedCredential(req.raw.rawHeaders);
    if (repeated !== undefined) {
      send(reply, unauthorized(refOf(req), `Credentials must be sent once: the request has ${repeated} twice.`));
      return;
    }
    done();
  });

  // Set before any route: Fastify binds a route to the error handler current when the route is loaded.
  app.setErrorHandler((error: FastifyError, req, reply) => {
    const ref = refOf(req);
    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return sendUnreadRefusal(
          req,
          reply,
          plainProblem(413, tooLarge(req.routeOptions.bodyLimit ?? options.bodyLimit, options), ref),
        );
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return sendUnreadRefusal(
          req,
          reply,
          plainProblem(
            415,
            `Content-Type '${req.headers['content-type'] ?? ''}' is not supported; send application/json.`,
            ref,
          ),
        );
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(
          reply,
          codedProblem(baseUrlOf(req), 'COMMON.VALIDATION.ERROR', `The body is not valid: ${error.message}`, ref, {
            field: '',
          }),
        );
      default:
        if ((error.statusCode ?? 500) < 500) return send(reply, plainProblem(400, error.message, ref));
        process.stderr.write(
          `opsapi mock: unexpected error on ${ref.method} ${ref.path}: ${error.stack ?? error.message}\n`,
        );
        return send(reply, plainProblem(500, 'The mock failed unexpectedly; the error was logged.', ref));
    }
  });

  // An answer sent before the body was read reaches the client instead of a reset (./lingering-close.ts), on at most a
  // quarter of the connections the cap allows.
  app.addHook('onSend', lingerWhenBodyUnread(Math.max(1, Math.floor(options.maxConnections / 4))));
  for (const hook of additions.onSend ?? []) app.addHook('onSend', hook);
  for (const hook of additions.onResponse ?? []) app.addHook('onResponse', hook);

  for (const op of OPERATIONS) {
    const handler = handlers[op.operationId];
    if (!handler) throw new Error(`no handler for ${op.operationId}`);
    registerOperation(app, op, handler, services, successSerializerSchema(document, op));
  }
  await registerDocs(app, document, additions.docsSections ?? []);
  registerErrorPages(app);

  app.setNotFoundHandler((req, reply) => {
    const ref = refOf(req);
    const allowed = allowedMethods(ref.path);
    if (allowed.length > 0) {
      const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
      return send(
        reply,
        plainProblem(405, `${req.method} is not allowed on ${ref.path}; allowed: ${allow}.`, ref, { allow }),
      );
    }
    return send(reply, plainProblem(404, `No operation answers ${req.method} ${ref.path}.`, ref));
  });

  return app;
}

/** The 413's detail: the global limit, or an operation's own (./body-limits.ts), which says why it is lower. */
function tooLarge(limit: number, options: ShellOptions): string {
  return limit < options.bodyLimit
    ? `The body is larger than ${limit} bytes, the most a valid body of this operation can need (its schema bounds every field; --body-limit ${options.bodyLimit} is the ceiling).`
    : `The body is larger than ${limit} bytes.`;
}

/** The answer to a request node:http refused before any route (malformed, headers too large, or too slow). */
function clientErrorAnswer(code: string | undefined) {
  // 431 is RFC 6585's, which RFC 9110 does not define: its type stays the one of every malformed request.
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      title: 'Request Header Fields Too Large',
      section: '15.5.1',
      detail: 'The request is not valid HTTP.',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      status: 408,
      title: 'Request Timeout',
      section: '15.5.9',
      detail: 'The request did not arrive in time (--headers-timeout, --request-timeout); the connection is closed.',
    };
  return { status: 400, title: 'Bad Request', section: '15.5.1', detail: 'The request is not valid HTTP.' };
}
