import { isErrorCode } from '../../spec/errors/index.js';
import { operation } from '../../spec/operations/index.js';
import { RFC9110_401_FORMS, RFC9110_401_TYPE, isRfc9110Section401Address } from '../../spec/schemas/problem.js';
import type { Exchange } from '../wire/client.js';
import { isJsonMedia, mediaTypeOf, problemOf } from '../contract/bodies.js';
import { Findings, where, type ExchangeRule } from './types.js';
import { expectedIn } from '../contract/decided.js';

/** The media type of a response. */
function mediaType(ex: Exchange): string {
  return mediaTypeOf(ex.headers['content-type']);
}

/** Statuses answered by problems that carry no code: the plain 401 and errors no catalog code names. */
const UNCODED = new Set([401, 405, 406, 413, 415]);

/** Error answers of contract operations: what the problem rules judge. */
const isContractError = (ex: Exchange): boolean => ex.status >= 400 && ex.operationId !== undefined;

/** Whether `instance` is `<METHOD> <path>` of the request (the path as sent, or below a base path). */
function instanceMatches(instance: unknown, ex: Exchange, basePath: string): boolean {
  if (typeof instance !== 'string') return false;
  return instance === `${ex.method} ${ex.path}` || instance === `${ex.method} ${basePath}${ex.path}`;
}

const errors = { family: 'errors' as const, applies: isContractError };

/** Errors / Problem body: the rules every error answer of the contract's operations meets. */
export const PROBLEM_RULES: ExchangeRule[] = [
  {
    ...errors,
    id: 'errors.problem-shape',
    title: 'Every error is a problem body with type, title, status, detail and instance (and parameters on 429)',
    clause: 'Errors / Problem body',
    level: 'MUST',
    judge(ex) {
      const f = new Findings();
      const b = problemOf(ex);
      if (!b) {
        f.check(false, `${where(ex)}: the body is not a JSON object`, 'a problem body', ex.text.slice(0, 120));
        return f.list;
      }
      const missing: string[] = (['type', 'title', 'detail', 'instance'] as const).filter(
        (k) => typeof b[k] !== 'string' || (k === 'type' && b[k] === ''),
      );
      if (typeof b.status !== 'number' || !Number.isInteger(b.status)) missing.push('status');
      f.check(
        missing.length === 0,
        `${where(ex)}: problem fields missing or mistyped: ${missing.join(', ')}`,
        'type, title, detail, instance (strings) and status (integer)',
      );
      if (b.parameters !== undefined)
        f.check(
          typeof b.parameters === 'object' && b.parameters !== null && !Array.isArray(b.parameters),
          `${where(ex)}: parameters is not an object`,
        );
      if (ex.status === 429)
        f.check(
          typeof b.parameters === 'object' && b.parameters !== null,
          `${where(ex)}: the 429 problem has no parameters`,
          'parameters: {} on 429',
          'absent',
        );
      return f.list;
    },
  },
  {
    ...errors,
    id: 'errors.problem-status',
    title: 'The problem `status` equals the HTTP status',
    clause: 'Errors / Problem body (status)',
    level: 'MUST',
    judge(ex) {
      const b = problemOf(ex);
      const f = new Findings();
      f.check(
        b?.status === ex.status,
        `${where(ex)}: problem status differs from the HTTP status`,
        String(ex.status),
        String(b?.status),
      );
      return f.list;
    },
  },
  {
    ...errors,
    id: 'errors.problem-instance',
    title: 'The problem `instance` is `<METHOD> <path>` of the request',
    clause: 'Errors / Problem body (instance)',
    level: 'MUST',
    judge(ex, env) {
      const b = problemOf(ex);
      const f = new Findings();
      f.check(
        instanceMatches(b?.instance, ex, env.basePath),
        `${where(ex)}: wrong instance`,
        `${ex.method} ${ex.path}`,
        String(b?.instance),
      );
      return f.list;
    },
  },
  {
    ...errors,
    id: 'errors.problem-code',
    title: 'Coded errors carry `code` (a catalog code) and `type` ending in /errors/<code>',
    clause: 'Errors / Problem body (code, type)',
    level: 'MUST',
    judge(ex) {
      const f = new Findings();
      const b = problemOf(ex);
      if (!b) return f.list;
      const declared = operation(ex.operationId as string).errors.find((e) => e.status === ex.status);
      // Only an error the reference codes must carry its code; the codes of the contract's other errors are its own.
      const mustHaveCode =
        !UNCODED.has(ex.status) &&
        declared !== undefined &&
        declared.provenance === 'documented' &&
        declared.codes.length > 0;
      if (b.code === undefined) {
        f.check(
          !mustHaveCode,
          `${where(ex)}: no code on an error the contract codes`,
          `one of ${declared?.codes.join(', ')}`,
          'no code',
        );
        return f.list;
      }
      f.check(
        typeof b.code === 'string' && isErrorCode(b.code),
        `${where(ex)}: code is not in the catalog`,
        'a catalog code',
        String(b.code),
      );
      f.check(
        typeof b.type === 'string' && b.type.endsWith(`/errors/${String(b.code)}`),
        `${where(ex)}: type does not end in /errors/<code>`,
        `…/errors/${String(b.code)}`,
        String(b.type),
      );
      return f.list;
    },
  },
  {
    ...errors,
    id: 'errors.problem-content-type',
    title: 'Problem bodies are sent with a JSON content type',
    clause: 'Errors / Problem body ("JSON")',
    level: 'MUST',
    judge(ex) {
      const f = new Findings();
      f.check(
        isJsonMedia(mediaType(ex)),
        `${where(ex)}: not a JSON content type`,
        'application/problem+json or application/json',
        ex.headers['content-type'] ?? '(none)',
      );
      return f.list;
    },
  },
  {
    ...errors,
    id: 'errors.problem-media-type',
    title: 'Problem bodies are sent as application/problem+json',
    clause: 'Errors / Problem body (media type not stated; RFC 9457)',
    level: 'SHOULD',
    judge(ex, env) {
      const f = new Findings();
      const want = expectedIn<'problem-media-type'>(env, 'problem-media-type', 'application/problem+json');
      f.check(mediaType(ex) === want, `${where(ex)}: not ${want}`, want, ex.headers['content-type'] ?? '(none)');
      return f.list;
    },
  },
];

/** Authentication, point 3: the 401 problem has no `code`. */
export function judge401NoCode(ex: Exchange): Findings {
  const f = new Findings();
  const body = problemOf(ex);
  f.check(
    body !== undefined && !('code' in body),
    `${where(ex)}: the 401 body has a code`,
    'no `code` property',
    body ? `code ${JSON.stringify(body.code)}` : 'no JSON body',
  );
  return f;
}

/**
 * Errors / Problem body: the type of the plain 401 is "the address of the HTTP semantics RFC 9110 section on 401".
 * The reference describes the address, it does not spell it: every URL that identifies that section is it (the RFC
 * Editor's, the IETF Datatracker's and the HTTP WG's renderings).
 */
export function judge401Type(ex: Exchange): Findings {
  const f = new Findings();
  const type = problemOf(ex)?.type;
  f.check(
    typeof type === 'string' && isRfc9110Section401Address(type),
    `${where(ex)}: the 401 type is not an address of RFC 9110 section 15.5.2`,
    RFC9110_401_FORMS.join(' or '),
    String(type),
  );
  return f;
}

/** The contract's own spelling of the 401 address (or the one a deployment was observed to use, `--decisions`). */
export function judge401TypeForm(ex: Exchange, expected: string = RFC9110_401_TYPE): Findings {
  const f = new Findings();
  const type = problemOf(ex)?.type;
  f.check(type === expected, `${where(ex)}: the 401 type is not the contract's form`, expected, String(type));
  return f;
}

const is401 = (ex: Exchange) => ex.status === 401 && ex.operationId !== undefined;

/** The 401 rules, judged on every 401 of a contract operation. */
export const AUTH_RULES: ExchangeRule[] = [
  {
    id: 'auth.401-no-code',
    title: 'The 401 problem carries no `code`',
    family: 'auth',
    clause: 'Authentication, point 3; Errors / Status and code pairs (401: no code)',
    level: 'MUST',
    applies: is401,
    judge: (ex) => judge401NoCode(ex).list,
  },
  {
    id: 'auth.401-type',
    title: 'The 401 problem `type` is the RFC 9110 section on 401',
    family: 'auth',
    clause: 'Errors / Problem body (type of the plain 401)',
    level: 'MUST',
    applies: is401,
    judge: (ex) => judge401Type(ex).list,
  },
  {
    id: 'auth.401-type-form',
    title: 'The 401 problem `type` is spelled as the contract spells the RFC 9110 address',
    family: 'auth',
    clause: 'Errors / Problem body (type of the plain 401; the exact spelling of the address is not given)',
    level: 'SHOULD',
    applies: is401,
    judge: (ex, env) =>
      judge401TypeForm(ex, expectedIn<'problem-401-type'>(env, 'problem-401-type', RFC9110_401_TYPE)).list,
  },
];
