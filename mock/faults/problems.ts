import type { PayloadHook } from '../http/decorator.js';
import type { FaultName } from './registry.js';

/** A problem body as the faults rewrite it (already serialised once by the faithful mock). */
type Body = Record<string, unknown>;

/** One planted fault of problem bodies: rewrites the body (and may change the media type) for an HTTP status. */
interface ProblemFault {
  readonly applies: (status: number) => boolean;
  readonly rewrite: (body: Body, status: number) => void;
  /** The media type the body is sent as instead of `application/problem+json`. */
  readonly contentType?: string;
}

/** Each breaks one rule of Errors / Problem body or Authentication, points 3-4, for the check meant for it. */
const PROBLEM_FAULTS: Partial<Record<FaultName, ProblemFault>> = {
  'auth-401-with-code': {
    applies: (s) => s === 401,
    rewrite: (b) => {
      b.code = 'COMMON.AUTH.UNAUTHORIZED';
    },
  },
  'auth-401-wrong-type': {
    applies: (s) => s === 401,
    rewrite: (b) => {
      b.type = `${String(b.type).split('/rfc/')[0]}/errors/COMMON.AUTH.UNAUTHORIZED`;
    },
  },
  'forbidden-wrong-code': {
    applies: (s) => s === 403,
    rewrite: (b) => {
      b.code = 'COMMON.AUTH.FORBIDDEN';
      b.type = String(b.type).replace('COMMON.AUTH.MISSING_PERMISSIONS', 'COMMON.AUTH.FORBIDDEN');
    },
  },
  'forbidden-no-permission-name': {
    applies: (s) => s === 403,
    rewrite: (b) => {
      b.detail = 'You are not allowed to do this.';
      b.parameters = {};
    },
  },
  'rate-limit-no-parameters': { applies: (s) => s === 429, rewrite: (b) => void delete b.parameters },
  'instance-without-method': {
    applies: () => true,
    rewrite: (b) => {
      b.instance = String(b.instance).replace(/^[A-Z]+ /, '');
    },
  },
  'problem-status-mismatch': {
    applies: () => true,
    rewrite: (b, s) => {
      b.status = s === 400 ? 422 : 400;
    },
  },
  'problem-content-type-missing': {
    applies: () => true,
    rewrite: () => undefined,
    contentType: 'text/plain; charset=utf-8',
  },
};

/**
 * The planted problem faults among `faults` as one `onSend` hook, or null when none of them is planted (the
 * faithful mock then has no hook at all). It recognises a problem by its media type, which every problem of the
 * mock carries (inferred, docs/DESIGN.md, "Defaults for what the reference leaves open"), so it sees the very bodies the faithful mock sends, whichever route sent them.
 */
export function problemFaultsHook(faults: ReadonlySet<FaultName>): PayloadHook | null {
  const planted = Object.entries(PROBLEM_FAULTS)
    .filter(([name]) => faults.has(name as FaultName))
    .map(([, fault]) => fault);
  if (planted.length === 0) return null;
  return async (_req, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof payload !== 'string' || typeof type !== 'string' || !type.startsWith('application/problem+json'))
      return payload;
    const body = JSON.parse(payload) as Body;
    const status = reply.statusCode;
    for (const fault of planted) {
      if (!fault.applies(status)) continue;
      fault.rewrite(body, status);
      if (fault.contentType) reply.header('content-type', fault.contentType);
    }
    return JSON.stringify(body);
  };
}
