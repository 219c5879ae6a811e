import type { CreateApiKeyBody } from '../../spec/schemas/access.js';
import type { Handler } from '../http/context.js';
import { ok } from '../http/context.js';
import { newApiKeyValue } from '../store/ids.js';
import type { DomainHandlers } from './types.js';

/**
 * `POST /v1/access/apiKeys` (Endpoints / Create an API key). The key acts with the tenant and permissions of
 * its creator (inferred, DESIGN). 201 with `id, key, name, orgCode, isActive` (status inferred).
 */
export const createApiKey: Handler = (ctx) => {
  const { tenant, principal } = ctx;
  const body = ctx.body as CreateApiKeyBody;
  const id = tenant.ids.next('key');
  const apiKey = { id, key: newApiKeyValue(), name: body.name, orgCode: tenant.org, isActive: true };
  tenant.commit('apiKey', id, {
    apiKey,
    subject: principal.subject,
    permissions: [...principal.permissions],
    roles: [...principal.roles],
  });
  return ok(201, apiKey, { location: `/v1/access/apiKeys/${id}` });
};

export const accessHandlers = { createApiKey } satisfies DomainHandlers;
