import { Type, type TSchema } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { baseUrlOf, refOf } from '../../http/request-ref.js';
import { send } from '../../http/send.js';
import { codedProblem } from '../../problems.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import {
  codedProblemDoc,
  emptyAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';
import type { Described } from '../validation.js';

/** `DELETE /__mock/api-keys/:id`. */
const ApiKeyParams = {
  schema: Type.Object({ id: Type.String({ description: 'the API key id' }) }),
  details: {},
} satisfies Described<TSchema>;

/**
 * `DELETE /__mock/api-keys/:id`: revokes an API key of the caller's tenant (the contract has no revoke operation): the
 * key record stays, with `isActive: false`, so requests carrying the key get the plain 401. Idempotent; another
 * tenant's key id is 404.
 */
export function registerApiKeys(admin: AdminInstance, { scoped }: AdminContext): void {
  admin.delete(
    '/__mock/api-keys/:id',
    {
      schema: {
        operationId: 'mockRevokeApiKey',
        tags: [TAG.tenant],
        summary: 'Revoke an API key',
        description: `The key record stays, inactive; requests carrying the key then get the plain 401. Idempotent; another tenant's key is not found. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        params: ApiKeyParams.schema,
        response: {
          204: emptyAnswer('Revoked.'),
          ...problemAnswers(NO_TENANT, codedProblemDoc('COMMON.ENTITY.NOT_FOUND')),
        },
      },
      preValidation: scoped,
    },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const { id } = req.params;
      const record = tenant.apiKeys.get(id);
      if (!record)
        return send(
          reply,
          codedProblem(baseUrlOf(req), 'COMMON.ENTITY.NOT_FOUND', `API key '${id}' does not exist.`, refOf(req), {
            entity: 'ApiKey',
            id,
          }),
        );
      if (record.apiKey.isActive)
        tenant.commit('apiKey', id, { ...record, apiKey: { ...record.apiKey, isActive: false } });
      return send(reply, ok(204));
    },
  );
}
