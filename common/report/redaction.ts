/**
 * What a report never shows: credentials. The options of a run are shown with the values of credential options (and
 * of every extra header, which may carry one) replaced by `<redacted>`, and callbacks left out; a request target keeps
 * its shape with the values of credential query parameters replaced (inferred: better one harmless value hidden than
 * one credential kept).
 */
export const REDACTED = '<redacted>';

/**
 * Headers whose values are credentials, wherever traffic is recorded or shown (the runner's report, the proxy's
 * recordings, the mock's request journal): the API's two (Authentication: `Authorization: Bearer <JWT>`,
 * `X-Api-Key`), the mock's admin and team keys, cookies and proxy credentials.
 */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-admin-key',
  'x-team-key',
  'cookie',
  'set-cookie',
]);

/** The options as a report shows them: credentials and header values redacted, callbacks left out. */
export function redactOptions(options: object, secretKeys: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined || typeof v === 'function') continue;
    if (secretKeys.has(k)) out[k] = REDACTED;
    else if (k === 'headers') out[k] = Object.fromEntries(Object.keys(v as object).map((h) => [h, REDACTED]));
    else out[k] = v;
  }
  return out;
}

/** Query parameter names compared without case, `-` and `_` (`api_key`, `apiKey`, `API-KEY` are one name). */
const SECRET_PARAMETERS = new Set(['token', 'accesstoken', 'apikey', 'key', 'secret', 'signature']);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * Whether a query parameter, by its decoded name, carries a credential: `token`, `access_token`, `api_key`, `key`,
 * `secret`, `signature`, and any name ending in token, secret or apikey (`id_token`, `client_secret`).
 */
export function isSecretParameter(name: string): boolean {
  const plain = name.toLowerCase().replace(/[-_]/g, '');
  return (
    SECRET_PARAMETERS.has(plain) || plain.endsWith('token') || plain.endsWith('secret') || plain.endsWith('apikey')
  );
}

/** A raw query string (without `?`) as received, the values of its credential parameters replaced. */
export function redactQueryString(raw: string): string {
  return raw
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      return eq !== -1 && isSecretParameter(decodedName(name)) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
}
