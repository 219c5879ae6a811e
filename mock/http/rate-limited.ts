import { codedProblem, type ProblemAnswer, type RequestRef, withHeaders } from '../problems.js';

/**
 * The answer to a request over the tenant's rate limit (Limits: 429 `COMMON.RATE_LIMIT.EXCEEDED` with
 * `parameters: {}`); the delay before a token is free is told in `Retry-After`, whole seconds, at least 1 (inferred).
 * `what` says which limit was passed: the tenant's by default; the admin API's throttle of refused keys says its own.
 */
export function rateLimited(
  baseUrl: string,
  ref: RequestRef,
  retryAfterMs: number,
  what = 'The request rate limit of the tenant is exceeded',
): ProblemAnswer {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const answer = codedProblem(baseUrl, 'COMMON.RATE_LIMIT.EXCEEDED', `${what}; retry after ${seconds} s.`, ref, {});
  return withHeaders(answer, { 'retry-after': String(seconds) });
}
