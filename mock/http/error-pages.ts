import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { catalogEntry, toCatalogEntry } from '../../spec/errors/index.js';
import { plainProblem } from '../problems.js';
import { negotiate } from './accept.js';
import { ERROR_PAGE_CSP, errorPageHtml, unknownCodePageHtml } from './error-page-html.js';
import { baseUrlOf, refOf } from './request-ref.js';
import { send } from './send.js';

const JSON_TYPE = 'application/json';
const HTML_TYPE = 'text/html';

/** `?format=` overrides `Accept`, so the page can link to its JSON (a browser's link keeps asking for HTML). */
const FORMATS: Readonly<Record<string, string>> = { json: JSON_TYPE, html: HTML_TYPE };

/**
 * `GET {base_url}/errors/<code>`: the address every coded problem names as its `type` (Errors / Problem body)
 * resolves. It answers the catalog entry, the same body as `GET /v1/errors/{errorCode}`, without authentication
 * (inferred: it is documentation, like `/docs`), as JSON, or as a readable HTML page when `Accept` prefers
 * `text/html`. An unknown code is a 404 problem without `code`, like every error no catalog code names, or a 404
 * page like the known codes' when the caller prefers HTML (a browser following a `type` address).
 */
export function registerErrorPages(app: FastifyInstance): void {
  app.get('/errors/:code', { exposeHeadRoute: true }, (req: FastifyRequest, reply: FastifyReply) => {
    const ref = refOf(req);
    const { code } = req.params as { code: string };
    const { format } = req.query as { format?: unknown };
    // Appended, not set: CORS may already vary on Origin.
    const vary = reply.getHeader('vary');
    reply.header('vary', vary ? `${String(vary)}, Accept` : 'Accept');
    if (format !== undefined && (typeof format !== 'string' || !FORMATS[format])) {
      return send(reply, plainProblem(400, `Query parameter 'format' must be json or html.`, ref));
    }
    const record = catalogEntry(code);
    const type = typeof format === 'string' ? FORMATS[format] : negotiate(req.headers.accept, [JSON_TYPE, HTML_TYPE]);
    if (!record && type === HTML_TYPE)
      return reply
        .code(404)
        .header('content-security-policy', ERROR_PAGE_CSP)
        .type('text/html; charset=utf-8')
        .send(unknownCodePageHtml(code, { catalog: '/errors/COMMON.ENTITY.NOT_FOUND', docs: '/docs' }));
    if (!record)
      return send(
        reply,
        plainProblem(
          404,
          `The error catalog has no code '${code.slice(0, 200)}'; GET /v1/errors/{errorCode} names the same codes.`,
          ref,
        ),
      );

    if (type === HTML_TYPE) {
      const path = `/errors/${encodeURIComponent(record.code)}`;
      const html = errorPageHtml(record, {
        type: `${baseUrlOf(req)}${path}`,
        json: `${path}?format=json`,
        docs: '/docs',
      });
      return reply.header('content-security-policy', ERROR_PAGE_CSP).type('text/html; charset=utf-8').send(html);
    }
    return reply.type('application/json; charset=utf-8').send({ ...toCatalogEntry(record), status: record.status });
  });
}
