import { Type } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import { jsonAnswer, NO_TENANT, problemAnswers, TAG, TENANT_CREDENTIALS, TENANT_NOTE } from '../doc-parts.js';

const WebhookSecret = Type.Object({
  secret: Type.String({ description: 'the HMAC-SHA256 key of the `X-HMAC-Signature` header' }),
});

/** `GET /__mock/webhook-secret`: what a receiver needs to check the signatures of the tenant's notifications. */
export function registerWebhookSecret(admin: AdminInstance, { scoped }: AdminContext): void {
  admin.get(
    '/__mock/webhook-secret',
    {
      schema: {
        operationId: 'mockWebhookSecret',
        tags: [TAG.tenant],
        summary: "The tenant's webhook signing secret",
        description: `The key of the HMAC-SHA256 \`X-HMAC-Signature\` of every notification sent for the tenant. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        response: { 200: jsonAnswer('The secret.', WebhookSecret), ...problemAnswers(NO_TENANT) },
      },
      preValidation: scoped,
    },
    async (req, reply) => send(reply, ok(200, { secret: tenantOf(req).webhookSecret })),
  );
}
