import { isErrorCode } from '../../spec/errors/index.js';
import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { filterableFields, listOperations, operations, probePath } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { listSpec, problemOf } from '../helpers.js';

/**
 * A few requests that must fail (401, 403, 404, 400), so the problem checks have errors to judge even when run
 * alone; then every error answer of a contract operation the run recorded.
 */
async function errorExchanges(c: CheckContext): Promise<Exchange[]> {
  await c.run.memo('errors:samples', async () => {
    const send = (spec: Parameters<typeof c.run.client.send>[1]) =>
      c.run.client.send('shared', spec).catch(() => undefined);
    const jobs: Promise<unknown>[] = [send({ method: 'GET', path: '/v1/admin/tenants/self', auth: 'none' })];
    if (c.run.credentials.main) {
      jobs.push(send({ method: 'GET', path: '/v1/errors/CONFORM.NO_SUCH.CODE' }));
      const list = listOperations().find((op) => filterableFields(op).length > 0 && op.pathParams.length === 0);
      if (list) jobs.push(send(listSpec(list, list.path, { filterBy: 'conformNoSuchColumn[Equals]x' })));
    }
    const guarded = operations().find((op) => op.permission.name !== null && op.method === 'get');
    const limited = guarded
      ? ((await c.run.credentials.without?.(guarded.permission.name as string)) ?? c.run.credentials.limited)
      : undefined;
    if (guarded && limited) jobs.push(send({ method: 'GET', path: probePath(guarded), auth: { bearer: limited } }));
    await Promise.all(jobs);
  });
  return c.run.client.exchanges.filter((ex) => ex.status >= 400 && ex.operationId !== undefined);
}

/** The media type of a response, lowercased, without parameters. */
function mediaType(ex: Exchange): string {
  return (ex.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function isJsonMedia(type: string): boolean {
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/** Statuses answered by problems that carry no code: the plain 401 and errors no catalog code names. */
const UNCODED = new Set([401, 405, 406, 413, 415]);

function each(c: CheckContext, exchanges: Exchange[], test: (ex: Exchange) => void): void {
  for (const ex of exchanges) {
    c.exercised(`${ex.method} ${ex.path} ${ex.status}`);
    test(ex);
  }
}

function where(ex: Exchange): string {
  return `${ex.method} ${ex.target} -> ${ex.status}`;
}

/** Whether `instance` is `<METHOD> <path>` of the request (the path as sent, or below a base path). */
function instanceMatches(instance: unknown, ex: Exchange, basePath: string): boolean {
  if (typeof instance !== 'string') return false;
  return instance === `${ex.method} ${ex.path}` || instance === `${ex.method} ${basePath}${ex.path}`;
}

export function problemChecks(): CheckDef[] {
  const aggregate = { family: 'errors' as const, phase: 'aggregate' as const };
  return [
    {
      ...aggregate,
      id: 'errors.problem-shape',
      title: 'Every error is a problem body with type, title, status, detail and instance (and parameters on 429)',
      clause: 'Errors / Problem body',
      level: 'MUST',
      async run(c) {
        each(c, await errorExchanges(c), (ex) => {
          const b = problemOf(ex);
          if (!b)
            return c.fail(`${where(ex)}: the body is not a JSON object`, ex, 'a problem body', ex.text.slice(0, 120));
          const missing = (['type', 'title', 'detail', 'instance'] as const).filter(
            (k) => typeof b[k] !== 'string' || (k === 'type' && b[k] === ''),
          );
          if (typeof b.status !== 'number' || !Number.isInteger(b.status)) missing.push('status' as never);
          c.expect(
            missing.length === 0,
            `${where(ex)}: problem fields missing or mistyped: ${missing.join(', ')}`,
            ex,
            'type, title, detail, instance (strings) and status (integer)',
          );
          if (b.parameters !== undefined)
            c.expect(
              typeof b.parameters === 'object' && b.parameters !== null && !Array.isArray(b.parameters),
              `${where(ex)}: parameters is not an object`,
              ex,
            );
          if (ex.status === 429)
            c.expect(
              typeof b.parameters === 'object' && b.parameters !== null,
              `${where(ex)}: the 429 problem has no parameters`,
              ex,
              'parameters: {} on 429',
              'absent',
            );
        });
      },
    },
    {
      ...aggregate,
      id: 'errors.problem-status',
      title: 'The problem `status` equals the HTTP status',
      clause: 'Errors / Problem body (status)',
      level: 'MUST',
      async run(c) {
        each(c, await errorExchanges(c), (ex) => {
          const b = problemOf(ex);
          c.expect(
            b?.status === ex.status,
            `${where(ex)}: problem status differs from the HTTP status`,
            ex,
            String(ex.status),
            String(b?.status),
          );
        });
      },
    },
    {
      ...aggregate,
      id: 'errors.problem-instance',
      title: 'The problem `instance` is `<METHOD> <path>` of the request',
      clause: 'Errors / Problem body (instance)',
      level: 'MUST',
      async run(c) {
        const basePath = new URL(c.run.options.baseUrl).pathname.replace(/\/+$/, '');
        each(c, await errorExchanges(c), (ex) => {
          const b = problemOf(ex);
          c.expect(
            instanceMatches(b?.instance, ex, basePath),
            `${where(ex)}: wrong instance`,
            ex,
            `${ex.method} ${ex.path}`,
            String(b?.instance),
          );
        });
      },
    },
    {
      ...aggregate,
      id: 'errors.problem-code',
      title: 'Coded errors carry `code` (a catalog code) and `type` ending in /errors/<code>',
      clause: 'Errors / Problem body (code, type)',
      level: 'MUST',
      async run(c) {
        each(c, await errorExchanges(c), (ex) => {
          const b = problemOf(ex);
          if (!b) return;
          const declared = operation(ex.operationId as string).errors.find((e) => e.status === ex.status);
          const mustHaveCode = !UNCODED.has(ex.status) && declared !== undefined && declared.codes.length > 0;
          if (b.code === undefined) {
            c.expect(
              !mustHaveCode,
              `${where(ex)}: no code on an error the contract codes`,
              ex,
              `one of ${declared?.codes.join(', ')}`,
              'no code',
            );
            return;
          }
          c.expect(
            typeof b.code === 'string' && isErrorCode(b.code),
            `${where(ex)}: code is not in the catalog`,
            ex,
            'a catalog code',
            String(b.code),
          );
          c.expect(
            typeof b.type === 'string' && b.type.endsWith(`/errors/${String(b.code)}`),
            `${where(ex)}: type does not end in /errors/<code>`,
            ex,
            `…/errors/${String(b.code)}`,
            String(b.type),
          );
        });
      },
    },
    {
      ...aggregate,
      id: 'errors.problem-content-type',
      title: 'Problem bodies are sent with a JSON content type',
      clause: 'Errors / Problem body ("JSON")',
      level: 'MUST',
      async run(c) {
        each(c, await errorExchanges(c), (ex) => {
          c.expect(
            isJsonMedia(mediaType(ex)),
            `${where(ex)}: not a JSON content type`,
            ex,
            'application/problem+json or application/json',
            ex.headers['content-type'] ?? '(none)',
          );
        });
      },
    },
    {
      ...aggregate,
      id: 'errors.problem-media-type',
      title: 'Problem bodies are sent as application/problem+json',
      clause: 'Errors / Problem body (media type not stated; RFC 9457)',
      level: 'SHOULD',
      async run(c) {
        each(c, await errorExchanges(c), (ex) => {
          c.expect(
            mediaType(ex) === 'application/problem+json',
            `${where(ex)}: not application/problem+json`,
            ex,
            'application/problem+json',
            ex.headers['content-type'] ?? '(none)',
          );
        });
      },
    },
  ];
}
