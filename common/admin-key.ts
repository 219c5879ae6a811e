/**
 * The admin key of a shared mock (docs/DESIGN.md, "Shared sandbox"): with `--admin-key KEY`, every `/__mock/*` call but
 * `/__mock/health` needs the header `X-Admin-Key: KEY`. Both sides live here: the mock answers a missing or wrong key
 * with a plain 401 carrying `ADMIN_KEY_CHALLENGE`, and the kit's own clients of the admin API (the conformance runner,
 * `opsapi coverage`, `trigger`, `listen`, through common/mock-keys.ts) send the key and tell that 401 from a refused
 * tenant credential.
 */

/** The request header carrying the admin key (docs/DESIGN.md, "Shared sandbox"); lowercase, as Node reports header names. */
export const ADMIN_KEY_HEADER = 'x-admin-key';

/**
 * The `WWW-Authenticate` challenge of the admin key's 401 (inferred: RFC 9110 section 11.6.1 wants a challenge on
 * every 401, and the scheme `AdminKey` tells a client this 401 from the tenant's `Bearer` one, whose body is the same).
 */
export const ADMIN_KEY_CHALLENGE = 'AdminKey realm="opsapi-mock-admin", header="X-Admin-Key"';

/** Whether an answer is the admin key's refusal (a 401 with its challenge), not a refused tenant credential. */
export function isAdminKeyRefusal(status: number, wwwAuthenticate: string | string[] | undefined): boolean {
  const challenge = [wwwAuthenticate ?? []].flat().join(', ');
  return status === 401 && /^\s*AdminKey\b/i.test(challenge);
}

/**
 * What a client says when the admin API refused it: the key it sent is wrong, or it sent none and the mock wants one.
 * `flags` names where the key comes from in that client.
 */
export function adminKeyRefusalMessage(keySent: boolean, flags = '--admin-key (or OPSAPI_ADMIN_KEY)'): string {
  return keySent
    ? `the mock's admin API refused the key: ${flags} is not the key the mock was started with`
    : `the mock's admin API needs a key (it was started with --admin-key): pass ${flags}`;
}
