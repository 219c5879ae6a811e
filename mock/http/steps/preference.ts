import { plainProblem, unauthorized, withHeaders } from '../../problems.js';
import type { RequestStep } from '../exchange.js';
import { preferredCode } from '../prefer.js';

/**
 * `Prefer: code=<status>` (like Prism): an error status the operation declares is answered as its documented
 * status/code pair; a status it does not declare is a 400 without catalog code naming the declared ones (../prefer.ts).
 */
export const preference: RequestStep = (x, route) => {
  const { op } = route;
  const preferred = preferredCode(op, x.req.headers.prefer);
  if (preferred.kind === 'none') return undefined;
  if (preferred.kind === 'refuse') return plainProblem(400, preferred.detail, x.ref);
  const forced = preferred.status;
  x.reply.header('preference-applied', `code=${forced}`);
  if (forced === 401) return unauthorized(x.ref, 'Forced by Prefer: code=401.');
  const code = op.errors.find((e) => e.status === forced)?.codes[0];
  if (!code) return undefined;
  const answer = x.problem(
    code,
    `Forced by Prefer: code=${forced}.`,
    code === 'COMMON.AUTH.MISSING_PERMISSIONS' && op.permission.name ? { permission: op.permission.name } : {},
  );
  return forced === 429 ? withHeaders(answer, { 'retry-after': '1' }) : answer;
};
