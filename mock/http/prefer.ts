import type { OperationDef } from '../../spec/operations/index.js';

/**
 * `Prefer: code=<status>` (like Prism): the status the client asks the mock to force for this operation, when the
 * operation declares it as an error response; null otherwise (the request then runs normally).
 */
export function preferredErrorStatus(op: OperationDef, prefer: string | string[] | undefined): number | null {
  if (prefer === undefined) return null;
  const text = Array.isArray(prefer) ? prefer.join(',') : prefer;
  const m = /(?:^|[,;\s])code\s*=\s*"?(\d{3})"?/i.exec(text);
  if (!m) return null;
  const status = Number(m[1]);
  return op.errors.some((e) => e.status === status) ? status : null;
}
