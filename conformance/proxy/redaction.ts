import { CREDENTIAL_HEADERS, isSecretParameter, REDACTED } from '../../common/report/redaction.js';

/**
 * What the proxy's recordings never keep: credentials. Recorded traffic is shared (attached to issues, committed as
 * fixtures), so header values and query parameters that carry credentials are replaced by `<redacted>` (inferred).
 */
/** Headers whose values the recordings hide: the credential headers, and webhook signatures (`X-HMAC-Signature`, Webhooks). */
const SECRET_HEADERS = new Set([...CREDENTIAL_HEADERS, 'x-hmac-signature']);

/** Headers of the form `<scheme> <credentials>`, whose scheme word is kept ("Bearer <redacted>"). */
const WITH_SCHEME = new Set(['authorization', 'proxy-authorization']);

/** Headers whose values are URLs, whose credential query parameters are redacted like the request's own. */
const URL_HEADERS = new Set(['location', 'content-location', 'referer']);

/** A header's value as recordings keep it. */
function redactHeaderValue(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (URL_HEADERS.has(lower)) return redactQuery(value).target;
  if (!SECRET_HEADERS.has(lower)) return value;
  if (WITH_SCHEME.has(lower)) {
    const scheme = /^\s*(\S+)\s+\S/.exec(value);
    if (scheme) return `${scheme[1]} ${REDACTED}`;
  }
  return REDACTED;
}

/** Headers (raw names, order kept) with the values of credential headers replaced by `<redacted>`. */
export function redactHeaders(headers: readonly (readonly [string, string])[]): [string, string][] {
  return headers.map(([name, value]) => [name, redactHeaderValue(name, value)]);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * A request target (or any URL) with the values of credential parameters replaced by `<redacted>`, and its query as
 * decoded name/value pairs (the same values redacted). Everything else of the target is kept as it was written.
 */
export function redactQuery(target: string): { target: string; query: { name: string; value: string }[] } {
  const q = target.indexOf('?');
  if (q === -1) return { target, query: [] };
  const hash = target.indexOf('#', q);
  const end = hash === -1 ? target.length : hash;
  const query: { name: string; value: string }[] = [];
  const kept: string[] = [];
  for (const part of target.slice(q + 1, end).split('&')) {
    if (part === '') {
      kept.push(part);
      continue;
    }
    const eq = part.indexOf('=');
    const rawName = eq === -1 ? part : part.slice(0, eq);
    const name = decode(rawName);
    if (isSecretParameter(name)) {
      query.push({ name, value: REDACTED });
      kept.push(`${rawName}=${REDACTED}`);
    } else {
      query.push({ name, value: eq === -1 ? '' : decode(part.slice(eq + 1)) });
      kept.push(part);
    }
  }
  return { target: `${target.slice(0, q)}?${kept.join('&')}${target.slice(end)}`, query };
}

/**
 * Credentials in a body's text: JSON Web Tokens (a minted token in `POST /__mock/tokens`), the mock's API key values
 * (`opsk_...`, in `POST /v1/access/apiKeys`) and webhook signing secrets (`whsec_...`), and any secret seen in a
 * credential header of the traffic (`known`). The body keeps its shape; only the values are replaced.
 */
const BODY_SECRETS = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*|\b(?:opsk|whsec)_[A-Za-z0-9_-]{8,}/g;

export function redactBodyText(text: string, known: Iterable<string> = []): string {
  let out = text.replace(BODY_SECRETS, REDACTED);
  for (const secret of known) if (secret.length >= 12 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}
