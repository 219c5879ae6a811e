import type { OperationDef } from './types.js';
import { INF } from './types.js';
import { RATE_LIMITED, UNAUTHORIZED } from './standard-errors.js';

/** `GET /v1/admin/tenants/self` (named in the reference's error messages only). */
export const getTenantSelf: OperationDef = {
  operationId: 'getTenantSelf',
  method: 'get',
  path: '/v1/admin/tenants/self',
  tag: 'Admin',
  summary: "Read the caller's tenant",
  description: 'Reads the organisation the credentials belong to.',
  ...INF("This operation appears only in an error message of the reference; its shape is this kit's decision."),
  permission: { name: null, ...INF('Not shown; every authenticated caller may read its own tenant.') },
  apiKey: INF('Accepted on every operation (the reference names list requests only).'),
  pathParams: [],
  success: { status: 200, schema: 'Tenant', description: 'The tenant.', ...INF('200 with the tenant.') },
  errors: [UNAUTHORIZED, RATE_LIMITED],
};
