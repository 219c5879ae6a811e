/**
 * Headers that carry a credential, each of which a request sends once: a bearer token, an API key, the admin key and
 * a team key (docs/DESIGN.md, "Shared sandbox").
 */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'x-admin-key', 'x-team-key']);

/**
 * The credential header a request sends more than once, or undefined. Read from the raw headers, as node:http keeps
 * only the first `Authorization` and joins repeated `X-Api-Key` lines with ", ": either way one of two credentials
 * would be used silently. Inferred (Authentication, point 3): credentials sent twice are no valid authentication.
 */
export function repeatedCredential(rawHeaders: readonly string[]): string | undefined {
  // Every request passes here: a request with one credential header (most) allocates nothing but its lowercase name.
  let first: string | undefined;
  let seen: Set<string> | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]?.toLowerCase() ?? '';
    if (!CREDENTIAL_HEADERS.has(name)) continue;
    if (name === first || seen?.has(name)) return name;
    if (first === undefined) first = name;
    else {
      seen ??= new Set();
      seen.add(name);
    }
  }
  return undefined;
}
