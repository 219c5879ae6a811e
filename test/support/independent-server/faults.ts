/**
 * Planted faults: each switch breaks exactly one documented rule of the reference, so a conformance runner can be
 * shown to notice it. With no switch on, the server keeps every documented rule.
 */
export const INDEPENDENT_FAULTS: Readonly<Record<string, string>> = Object.freeze({
  'auth-401-with-code': 'the plain 401 problem carries a code (Authentication 3: it has no code)',
  'auth-401-wrong-type':
    'the plain 401 problem type is a coded {base_url}/errors/COMMON.AUTH.UNAUTHORIZED address instead of RFC 9110 section 15.5.2',
  'forbidden-wrong-code': '403 carries COMMON.AUTH.FORBIDDEN instead of COMMON.AUTH.MISSING_PERMISSIONS',
  'forbidden-no-permission-name': 'the 403 detail and parameters do not name the missing permission',
  'total-pages-off-by-one': 'totalPages is one more than ceil(totalCount / pageSize)',
  'page-size-default-20': 'a list without pageSize uses 20 items per page instead of 25',
  'page-size-1001-accepted': 'pageSize above 1000 is accepted and honoured',
  'filter-unknown-column-accepted': 'a filter naming an unknown column is ignored (200) instead of 400',
  'contains-as-equals': 'the Contains filter operator matches only whole values',
  'sort-descending-ignored': 'a leading - in sortBy is ignored (ascending order)',
  'instance-without-method': 'problem instance is the request path without the method',
  'problem-content-type-missing': 'problem bodies are sent as text/plain instead of JSON',
  'unknown-error-code-200': 'GET /v1/errors/{code} answers 200 for a code outside the catalog',
  'signature-uppercase-hex': 'X-HMAC-Signature is upper-case hexadecimal',
  'signature-reserialised': 'the signature is computed over an indented re-serialisation, not the bytes sent',
  'rate-limit-no-parameters': 'the 429 problem has no parameters object',
  'stock-update-200-body': 'the stock update answers 200 with a JSON body instead of no content',
  'problem-status-mismatch': 'the status inside 4xx problem bodies is 500, unlike the HTTP status',
  'cancelled-line-modifiable': 'a cancelled purchase order line can be modified (200)',
});

/** The set of switched-on faults; an unknown name is a mistake of the caller, so it throws. */
export function parseFaults(names: Iterable<string> | undefined): ReadonlySet<string> {
  const out = new Set<string>();
  for (const name of names ?? []) {
    if (!Object.hasOwn(INDEPENDENT_FAULTS, name)) throw new Error(`unknown fault: ${name}`);
    out.add(name);
  }
  return out;
}
