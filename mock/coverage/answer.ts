import type { onSendHookHandler } from 'fastify';
import type { Store } from '../store/store.js';
import { refusedCallerOrg, type SignedTokenOrgs } from './refused-caller.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `code` of the problem an operation answered (journal, coverage); undefined for successes and plain problems. */
    answerCode?: string;
  }
}

/** The `code` member of a serialised problem body, if it has a string one. */
function problemCode(payload: unknown): string | undefined {
  if (typeof payload !== 'string' || payload === '') return undefined;
  try {
    const code: unknown = (JSON.parse(payload) as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An `onSend` hook that notes, for an error answer of a contract operation, the problem code as sent (after any
 * planted fault rewrote it) and, for a 401, the tenant whose refused credentials the request carried
 * (./refused-caller.ts; `tokenOrgs`: the mock's memo of its signed tokens' tenants, which the client checks share).
 * Successes, admin routes and unattributed requests cost one comparison.
 */
export function answerHook(tokenOrgs: SignedTokenOrgs, store: Store): onSendHookHandler {
  return (req, reply, payload, done) => {
    if (req.operationId !== undefined && reply.statusCode >= 400) {
      if (req.tenantOrg === undefined && reply.statusCode === 401)
        req.tenantOrg = refusedCallerOrg(req.headers, tokenOrgs, store);
      if (req.tenantOrg !== undefined) req.answerCode = problemCode(payload);
    }
    done(null, payload);
  };
}
