import { Type, type TSchema } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import type { TenantState } from '../../store/tenant-state.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import {
  BODY_PROBLEMS,
  jsonAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';
import { BODY_NOT_OBJECT, parseJsonBody, type Described } from '../validation.js';

/** Bounds of `POST /__mock/clock` (seconds): at most 10 years per call. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/** `POST /__mock/clock`. */
const ClockBody = {
  schema: Type.Object({
    advanceSeconds: Type.Number({
      minimum: 0,
      maximum: MAX_ADVANCE_SECONDS,
      description: "seconds to move the tenant's virtual clock forward",
    }),
  }),
  details: { '': BODY_NOT_OBJECT, advanceSeconds: `advanceSeconds must be a number from 0 to ${MAX_ADVANCE_SECONDS}.` },
} satisfies Described<TSchema>;

const ClockReading = Type.Object({
  now: Type.String({ format: 'date-time', description: "the tenant's virtual time" }),
  offsetSeconds: Type.Number({ description: 'how far the virtual clock runs ahead of real time' }),
});

const reading = (tenant: TenantState) => ok(200, { now: tenant.nowIso(), offsetSeconds: tenant.clock.offset / 1000 });

/** `GET` and `POST /__mock/clock`: the tenant's virtual clock, read or moved forward (per tenant, never shared). */
export function registerClock(admin: AdminInstance, { services, scoped }: AdminContext): void {
  admin.get(
    '/__mock/clock',
    {
      schema: {
        operationId: 'mockReadClock',
        tags: [TAG.tenant],
        summary: "Read the tenant's virtual clock",
        description: TENANT_NOTE,
        security: TENANT_CREDENTIALS,
        response: { 200: jsonAnswer('The virtual time.', ClockReading), ...problemAnswers(NO_TENANT) },
      },
      preValidation: scoped,
    },
    async (req, reply) => send(reply, reading(tenantOf(req))),
  );

  admin.post(
    '/__mock/clock',
    {
      schema: {
        operationId: 'mockAdvanceClock',
        tags: [TAG.tenant],
        summary: "Advance the tenant's virtual clock",
        description: `Runs every webhook retry of the tenant that falls due, then answers the new time. Per tenant: one test's time travel never touches another's. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        body: ClockBody.schema,
        response: {
          200: jsonAnswer('The new virtual time.', ClockReading),
          ...problemAnswers(...BODY_PROBLEMS, NO_TENANT),
        },
      },
      config: { fieldDetails: ClockBody.details },
      preValidation: [scoped, parseJsonBody],
    },
    async (req, reply) => {
      const tenant = tenantOf(req);
      await services.engine.advance(tenant, req.body.advanceSeconds);
      return send(reply, reading(tenant));
    },
  );
}
