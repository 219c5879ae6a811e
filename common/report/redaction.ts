/**
 * What a report never shows: credentials. The options of a run are shown with the values of credential options (and
 * of every extra header, which may carry one) replaced by `<redacted>`, and callbacks left out; a request target keeps
 * its shape with the values of credential query parameters replaced (inferred: better one harmless value hidden than
 * one credential kept).
 */
export const REDACTED = '<redacted>';

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

/** Whether a query parameter carries a credential: those names, and any name ending in token, secret or apikey. */
function isSecretParameter(name: string): boolean {
  const plain = decodedName(name).toLowerCase().replace(/[-_]/g, '');
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
      return eq !== -1 && isSecretParameter(name) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
}
