import type { FastifyRequest } from 'fastify';
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
 * Notes, for an error answer of a contract operation, the problem code as sent (after any planted fault rewrote it)
 * and, for a 401, the tenant whose refused credentials the request carried (./refused-caller.ts; `tokenOrgs`: the
 * mock's memo of its signed tokens' tenants, which the client checks share). Called as the answer is sent (the
 * recorders' `onSend`, mock/recorders.ts): successes, admin routes and unattributed requests cost one comparison.
 */
export function answerCodeNoter(
  tokenOrgs: SignedTokenOrgs,
  store: Store,
): (req: FastifyRequest, status: number, payload: unknown) => void {
  return (req, status, payload) => {
    if (req.operationId === undefined || status < 400) return;
    if (req.tenantOrg === undefined && status === 401) req.tenantOrg = refusedCallerOrg(req.headers, tokenOrgs, store);
    if (req.tenantOrg !== undefined) req.answerCode = problemCode(payload);
  };
}
