import type { FaultName } from '../../../index.js';

/** The check each planted fault must make fail. */
export const EXPECTED: Record<FaultName, string> = {
  'auth-401-with-code': 'auth.401-no-code',
  'auth-401-wrong-type': 'auth.401-type',
  'forbidden-wrong-code': 'permissions.403-code',
  'forbidden-no-permission-name': 'permissions.403-names-permission',
  'total-pages-off-by-one': 'lists.envelope-arithmetic',
  'page-size-default-20': 'lists.defaults',
  'page-size-1001-accepted': 'lists.page-size-max',
  'filter-unknown-column-accepted': 'filters.unknown-column',
  'contains-as-equals': 'filters.contains',
  'sort-descending-ignored': 'lists.sort-descending',
  'instance-without-method': 'errors.problem-instance',
  'problem-content-type-missing': 'errors.problem-content-type',
  'unknown-error-code-200': 'catalog.unknown-code-404',
  'signature-uppercase-hex': 'webhooks.signature',
  'signature-reserialised': 'webhooks.signature',
  'rate-limit-no-parameters': 'rate-limit.parameters',
  'stock-update-200-body': 'writes.stock-update-204',
  'problem-status-mismatch': 'errors.problem-status',
  'cancelled-line-modifiable': 'writes.cancelled-line-422',
};
