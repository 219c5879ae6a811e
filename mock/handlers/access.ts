import type { ApiKey, CreateApiKeyBody } from '../../spec/schemas/access.js';
import type { Handler } from './context.js';
import { ok } from './context.js';
import { newApiKeyValue } from '../store/ids.js';
import type { TenantState } from '../store/tenant-state.js';
import { planLimitExceeded, type PlanLimits } from './plan-limits.js';
import type { DomainHandlers } from './types.js';

/** Who an API key acts as: the subject, permissions and roles its requests get. */
export interface KeyHolder {
  readonly subject: string;
  readonly permissions: Iterable<string>;
  readonly roles: Iterable<string>;
}

/** Stores a new active API key of the tenant acting as `holder`; the one write of a key (handler and set-up). */
export function addApiKey(tenant: TenantState, name: string, holder: KeyHolder): ApiKey {
  const id = tenant.ids.next('key');
  const apiKey: ApiKey = { id, key: newApiKeyValue(), name, orgCode: tenant.org, isActive: true };
  tenant.commit('apiKey', id, {
    apiKey,
    subject: holder.subject,
    permissions: [...holder.permissions],
    roles: [...holder.roles],
  });
  return apiKey;
}

/** The oldest revoked key of a tenant (records keep their creation order), if any. */
function oldestRevoked(tenant: TenantState): string | undefined {
  for (const [id, record] of tenant.apiKeys) if (!record.apiKey.isActive) return id;
  return undefined;
}

/**
 * `POST /v1/access/apiKeys` (Endpoints / Create an API key). The key acts with the tenant and permissions of
 * its creator (inferred, docs/DESIGN.md, "Credentials and tokens"). 201 with `id, key, name, orgCode, isActive` (status inferred).
 *
 * At most `maxApiKeys` records per tenant, revoked ones included (a revoked key stays, inactive: the contract has no
 * delete). At the bound the oldest revoked record is forgotten to make room (a request with its key gets the same
 * plain 401 as before); with none revoked the key is refused with COMMON.TENANT.PLAN_LIMIT_EXCEEDED (inferred: the
 * catalog's code for a limit of the tenant).
 */
function createApiKey(limits: PlanLimits): Handler {
  return (ctx) => {
    if (ctx.tenant.apiKeys.size >= limits.maxApiKeys) {
      const revoked = oldestRevoked(ctx.tenant);
      if (revoked === undefined)
        return planLimitExceeded(ctx, {
          limit: 'max-api-keys',
          resource: 'ApiKey',
          what: 'active API keys',
          maximum: limits.maxApiKeys,
          remedy: 'revoke one (DELETE /__mock/api-keys/{id}) before creating another.',
        });
      ctx.tenant.commit('apiKey', revoked, null);
    }
    const apiKey = addApiKey(ctx.tenant, (ctx.body as CreateApiKeyBody).name, ctx.principal);
    return ok(201, apiKey, { location: `/v1/access/apiKeys/${apiKey.id}` });
  };
}

/** Handlers of the Access tag. */
export function accessHandlers(limits: PlanLimits) {
  return { createApiKey: createApiKey(limits) } satisfies DomainHandlers;
}
