/**
 * Planted faults (`--fault NAME`): each breaks exactly one rule of the reference, so the conformance runner can
 * prove its checks fail when they should (like RESTler's planted-bug servers). Never enable them otherwise.
 */
export const FAULTS = {
  'auth-401-with-code': '401 problems carry a `code` (Authentication, point 3 says they have none)',
  'auth-401-wrong-type': '401 problems have a coded `type` instead of the RFC 9110 address',
  'forbidden-wrong-code': '403 problems carry COMMON.AUTH.FORBIDDEN instead of MISSING_PERMISSIONS',
  'forbidden-no-permission-name': '403 detail does not name the missing permission',
  'total-pages-off-by-one': 'totalPages is one more than ceil(totalCount / pageSize)',
  'page-size-default-20': 'pageSize defaults to 20 instead of 25',
  'page-size-1001-accepted': 'pageSize above 1000 is accepted and honoured',
  'filter-unknown-column-accepted': 'a filter naming an unknown column is ignored instead of rejected',
  'contains-as-equals': 'Contains behaves as Equals',
  'sort-descending-ignored': 'a leading `-` in sortBy is ignored',
  'instance-without-method': 'problem `instance` is the path only, without the method',
  'problem-content-type-missing': 'problem bodies are sent as text/plain',
  'unknown-error-code-200': 'GET /v1/errors/{code} answers 200 for an unknown code',
  'signature-uppercase-hex': 'webhook signatures are sent in uppercase hex',
  'signature-reserialised': 'webhook signatures are computed over re-serialised JSON, not the bytes sent',
  'rate-limit-no-parameters': '429 problems have no `parameters`',
  'stock-update-200-body': 'stock update answers 200 with a body instead of 204',
  'problem-status-mismatch': 'problem `status` differs from the HTTP status',
  'cancelled-line-modifiable': 'a cancelled purchase order line can be modified',
} as const;

/** One planted fault. */
export type FaultName = keyof typeof FAULTS;

/** Whether a string names a planted fault. */
export function isFault(name: string): name is FaultName {
  return Object.hasOwn(FAULTS, name);
}
