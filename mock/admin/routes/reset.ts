import { Type, type TSchema } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import type { AdminContext, AdminInstance } from '../context.js';
import {
  BODY_PROBLEMS,
  jsonAnswer,
  NO_TENANT,
  OPTIONAL_TENANT_CREDENTIALS,
  problemAnswers,
  TAG,
  TENANT_NOTE,
} from '../doc-parts.js';
import { forbidden, notTenantAdmin } from '../guard.js';
import { refOf } from '../../http/request-ref.js';
import { BODY_NOT_OBJECT, parseJsonBody, type Described } from '../validation.js';

/** `POST /__mock/reset`: `{all: true}` resets every tenant; any other body resets the caller's tenant. */
const ResetBody = {
  schema: Type.Object({
    all: Type.Optional(
      Type.Unknown({ description: "`true` resets every tenant; any other value, or none, the caller's tenant" }),
    ),
  }),
  details: { '': BODY_NOT_OBJECT },
} satisfies Described<TSchema>;

const ResetDone = Type.Object({
  reset: Type.String({ description: '`all`, or the org of the tenant that was reset' }),
});

/**
 * `POST /__mock/reset`: a tenant back to its seeded world, or every tenant. It reads credentials itself (a reset of
 * every tenant needs none), so it has no `scoped` hook and its documentation says credentials are optional.
 */
export function registerReset(admin: AdminInstance, { services, callerTenant }: AdminContext): void {
  const { store } = services;
  admin.post(
    '/__mock/reset',
    {
      schema: {
        operationId: 'mockReset',
        tags: [TAG.tenant],
        summary: "Reset the caller's tenant, or every tenant",
        description: `\`{"all": true}\` resets every tenant and needs no tenant credentials (the operator's alone: the admin key on a keyed mock); any other body resets the caller's tenant to its seeded world (data, journal, clock, rate-limit bucket). ${TENANT_NOTE}`,
        security: OPTIONAL_TENANT_CREDENTIALS,
        body: ResetBody.schema,
        response: { 200: jsonAnswer('Reset.', ResetDone), ...problemAnswers(...BODY_PROBLEMS, NO_TENANT) },
      },
      config: { fieldDetails: ResetBody.details },
      preValidation: parseJsonBody,
    },
    async (req, reply) => {
      if (req.body.all === true) {
        // Every tenant is the operator's alone (docs/DESIGN.md, "Team credentials (shared sandbox)").
        if (req.adminCaller?.kind === 'team')
          return send(
            reply,
            forbidden(req, "A reset of every tenant is the operator's: a team key does not reach it."),
          );
        if (req.adminCaller?.kind !== 'operator') return send(reply, notTenantAdmin(refOf(req)));
        // Like a tenant reset, a reset of all tenants gives every tenant a full rate-limit bucket again.
        services.limiter?.clear();
        store.resetAll();
        return send(reply, ok(200, { reset: 'all' }));
      }
      const caller = await callerTenant(req);
      if ('refusal' in caller) return send(reply, caller.refusal);
      const { org } = caller.tenant;
      store.reset(org);
      services.limiter?.forget(org);
      return send(reply, ok(200, { reset: org }));
    },
  );
}
