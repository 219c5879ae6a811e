import type { OperationDef } from '../../spec/operations/index.js';

/**
 * What a `Prefer: code=<status>` header (like Prism) asks of one operation:
 * - `none`: no `code` preference, or the operation's own success status: the request runs normally;
 * - `force`: an error status the operation declares: the mock answers that documented status/code pair;
 * - `refuse`: a status the operation does not declare, or no status at all: a 400 problem naming the declared ones.
 */
type PreferredCode = { kind: 'none' } | { kind: 'force'; status: number } | { kind: 'refuse'; detail: string };

/** The value of the `code` preference (RFC 7240 syntax: `code=404`, `code="404"`, among other preferences), if any. */
function codeValue(prefer: string | string[] | undefined): string | null {
  if (prefer === undefined) return null;
  const text = Array.isArray(prefer) ? prefer.join(',') : prefer;
  const m = /(?:^|[,;\s])code\s*=\s*("?)([^",;\s]*)\1(?=$|[,;\s])/i.exec(text);
  return m ? (m[2] ?? '') : null;
}

/** Every status the operation declares, success first, ascending: what the client may ask for. */
function declaredStatuses(op: OperationDef): number[] {
  return [...new Set([op.success.status, ...op.errors.map((e) => e.status)])].sort((a, b) => a - b);
}

function list(statuses: readonly number[]): string {
  return statuses.length < 2
    ? statuses.join('')
    : `${statuses.slice(0, -1).join(', ')} and ${statuses[statuses.length - 1]}`;
}

/**
 * Reads `Prefer: code=` for an operation. A status the operation does not declare used to be ignored silently, so
 * a client test asking for it passed against a normal answer; it is refused instead (inferred: a mock-only
 * facility, so a problem without a catalog code, like the other errors no catalog code names).
 */
export function preferredCode(op: OperationDef, prefer: string | string[] | undefined): PreferredCode {
  const value = codeValue(prefer);
  if (value === null) return { kind: 'none' };
  const declared = declaredStatuses(op);
  const where = `${op.method.toUpperCase()} ${op.path}`;
  const choices = `${where} declares ${list(declared)}; the mock forces any of its error statuses (${list(declared.filter((s) => s !== op.success.status))}).`;
  if (!/^\d{3}$/.test(value))
    return { kind: 'refuse', detail: `Prefer: code=${value.slice(0, 20)} is not an HTTP status. ${choices}` };
  const status = Number(value);
  if (status === op.success.status) return { kind: 'none' };
  if (op.errors.some((e) => e.status === status)) return { kind: 'force', status };
  return {
    kind: 'refuse',
    detail: `Prefer: code=${status} cannot be forced: ${where} does not declare ${status}. ${choices}`,
  };
}
