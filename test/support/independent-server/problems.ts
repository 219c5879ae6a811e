import type { ServerResponse } from 'node:http';
import { STATUS_OF_CODE, titleOf } from './catalog.js';

/** The address of the HTTP semantics section on 401 (Errors / Problem body: `type` of the plain 401). */
const RFC9110_401 = 'https://datatracker.ietf.org/doc/html/rfc9110#section-15.5.2';

/**
 * A refusal raised anywhere while handling a request and rendered once by the dispatcher, so every error body has
 * the documented shape (Errors / Problem body).
 */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly code?: string,
    readonly parameters?: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  /** A coded problem whose status comes from this server's status table. */
  static coded(code: string, detail: string, parameters?: Record<string, unknown>): ApiProblem {
    const status = STATUS_OF_CODE[code];
    if (status === undefined) throw new Error(`no status chosen for ${code}`);
    return new ApiProblem(status, titleOf(code), detail, code, parameters);
  }

  /** Authentication 3: the plain 401, without a code. */
  static unauthorized(detail: string, invalidToken: boolean): ApiProblem {
    const challenge = invalidToken ? 'Bearer realm="opsapi", error="invalid_token"' : 'Bearer realm="opsapi"';
    return new ApiProblem(401, 'Authentication required', detail, undefined, undefined, {
      'WWW-Authenticate': challenge,
    });
  }

  static notFound(entity: string, id: string): ApiProblem {
    return ApiProblem.coded('COMMON.ENTITY.NOT_FOUND', `no ${entity} with identifier '${id}'`, { entity, id });
  }

  static validation(detail: string): ApiProblem {
    return ApiProblem.coded('COMMON.VALIDATION.ERROR', detail);
  }
}

/** Where a problem is rendered: the request line, this server's base URL and the faults switched on. */
export interface ProblemContext {
  method: string;
  path: string;
  base: string;
  faults: ReadonlySet<string>;
}

/** The JSON body of a problem, `type` built from the base URL (Errors / Problem body). */
function problemBody(ctx: ProblemContext, problem: ApiProblem): Record<string, unknown> {
  const plain401 = problem.status === 401 && problem.code === undefined;
  let code = problem.code;
  let type = code === undefined ? (plain401 ? RFC9110_401 : 'about:blank') : `${ctx.base}/errors/${code}`;
  if (plain401 && ctx.faults.has('auth-401-with-code')) code = 'COMMON.AUTH.UNAUTHORIZED';
  if (plain401 && ctx.faults.has('auth-401-wrong-type')) type = `${ctx.base}/errors/COMMON.AUTH.UNAUTHORIZED`;
  const status =
    ctx.faults.has('problem-status-mismatch') && problem.status >= 400 && problem.status < 500 ? 500 : problem.status;
  const body: Record<string, unknown> = {
    type,
    title: problem.title,
    status,
    detail: problem.detail,
    instance: ctx.faults.has('instance-without-method') ? ctx.path : `${ctx.method} ${ctx.path}`,
  };
  if (code !== undefined) body.code = code;
  if (problem.parameters !== undefined) body.parameters = problem.parameters;
  return body;
}

/** Sends a problem as `application/json` (this server's choice; the reference only says "JSON objects"). */
export function sendProblem(res: ServerResponse, ctx: ProblemContext, problem: ApiProblem): void {
  const text = JSON.stringify(problemBody(ctx, problem));
  const contentType = ctx.faults.has('problem-content-type-missing')
    ? 'text/plain; charset=utf-8'
    : 'application/json; charset=utf-8';
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(problem.status, {
    ...problem.headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
