/**
 * The proxy's own answer when the target cannot be reached: a problem body (Errors / Problem body: `type`, `title`,
 * `status`, `detail`, `instance` = `<METHOD> <request path>`), without `code` like every error no catalog code names
 * (inferred, as the mock's unknown route). 502 also for a timeout, so a client sees one status for "the target did
 * not answer" (inferred; RFC 9110 section 15.6.3).
 */
const BAD_GATEWAY_TYPE = 'https://www.rfc-editor.org/rfc/rfc9110#section-15.6.3';

/** One line saying why a transport operation failed (undici and node errors; an AggregateError has no message). */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & { code?: string; errors?: unknown[] };
  const message =
    e.message ||
    (Array.isArray(e.errors) ? e.errors.map((inner) => (inner instanceof Error ? inner.message : String(inner))) : [])
      .filter(Boolean)
      .join('; ') ||
    e.name;
  return e.code && !message.includes(e.code) ? `${message} (${e.code})` : message;
}

/** The request path without the query string, as `instance` names it. */
function pathOf(target: string): string {
  const q = target.indexOf('?');
  return q === -1 ? target : target.slice(0, q);
}

/** The 502 problem body (bytes) for a request the target did not answer. */
export function badGatewayBody(method: string, target: string, origin: string, reason: string): Buffer {
  return Buffer.from(
    JSON.stringify({
      type: BAD_GATEWAY_TYPE,
      title: 'Bad Gateway',
      status: 502,
      detail: `The target ${origin} could not be reached: ${reason}`,
      instance: `${method} ${pathOf(target)}`,
    }),
  );
}
