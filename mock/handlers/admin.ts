import type { Handler } from './context.js';
import { ok } from './context.js';
import type { DomainHandlers } from './types.js';

/** `GET /v1/admin/tenants/self`: the tenant the credentials belong to. */
const getTenantSelf: Handler = (ctx) => ok(200, ctx.tenant.tenant);

export const adminHandlers = { getTenantSelf } satisfies DomainHandlers;
