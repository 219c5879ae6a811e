import { Type } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import type { AdminInstance } from '../context.js';
import { jsonAnswer, NO_CREDENTIALS, TAG } from '../doc-parts.js';
import { ADMIN_HEALTH_URL } from '../guard.js';

const Health = Type.Object({ status: Type.Literal('ok') }, { description: 'The mock is up.' });

/** `GET /__mock/health`: the one admin route the admin key never guards (../guard.ts). */
export function registerHealth(admin: AdminInstance): void {
  admin.get(
    ADMIN_HEALTH_URL,
    {
      schema: {
        operationId: 'mockHealth',
        tags: [TAG.mock],
        summary: 'Whether the mock is up',
        description:
          'For load balancers and harnesses: answers while the process serves requests, without credentials, even on a mock started with `--admin-key`.',
        security: NO_CREDENTIALS,
        response: { 200: jsonAnswer('Up.', Health) },
      },
    },
    async (_req, reply) => send(reply, ok(200, { status: 'ok' })),
  );
}
