import type { ApiKey, CreateApiKeyBody } from '../../spec/schemas/access.js';
import type { Handler } from './context.js';
import { ok } from './context.js';
import { newApiKeyValue } from '../store/ids.js';
import type { TenantState } from '../store/tenant-state.js';
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

/**
 * `POST /v1/access/apiKeys` (Endpoints / Create an API key). The key acts with the tenant and permissions of
 * its creator (inferred, docs/DESIGN.md, "Credentials and tokens"). 201 with `id, key, name, orgCode, isActive` (status inferred).
 */
const createApiKey: Handler = (ctx) => {
  const apiKey = addApiKey(ctx.tenant, (ctx.body as CreateApiKeyBody).name, ctx.principal);
  return ok(201, apiKey, { location: `/v1/access/apiKeys/${apiKey.id}` });
};

export const accessHandlers = { createApiKey } satisfies DomainHandlers;
