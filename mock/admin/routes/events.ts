import { Type, type TSchema } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { baseUrlOf, refOf } from '../../http/request-ref.js';
import { send } from '../../http/send.js';
import { codedProblem } from '../../problems.js';
import { tenantOf, type AdminContext, type AdminInstance } from '../context.js';
import {
  BODY_PROBLEMS,
  codedProblemDoc,
  jsonAnswer,
  NO_TENANT,
  problemAnswers,
  TAG,
  TENANT_CREDENTIALS,
  TENANT_NOTE,
} from '../doc-parts.js';
import { BODY_NOT_OBJECT, parseJsonBody, type Described } from '../validation.js';

/** `POST /__mock/events`: the nesting bound of `data` is the body parser's (../validation.ts: JSON Schema cannot bound depth). */
const EventBody = {
  schema: Type.Object({
    eventName: Type.String({ description: 'an event of the catalog, e.g. `Warehouse.Shipment.Shipped`' }),
    eventVersion: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'only subscriptions to this version (default: every subscribed version)',
      }),
    ),
    data: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "the payload's data (default: sample data); nests at most 64 levels",
      }),
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    eventName: 'eventName is required.',
    eventVersion: 'eventVersion must be a positive integer.',
    data: 'data must be a JSON object.',
  },
} satisfies Described<TSchema>;

const Emission = Type.Object({
  eventId: Type.String(),
  notifications: Type.Array(Type.String(), {
    description: 'identifiers of the notifications created, one per matching subscription',
  }),
});

/** `POST /__mock/events`: a catalog event on demand, like `stripe trigger`, delivered as real ones are. */
export function registerEvents(admin: AdminInstance, { services, scoped }: AdminContext): void {
  admin.post(
    '/__mock/events',
    {
      schema: {
        operationId: 'mockEmitEvent',
        tags: [TAG.tenant],
        summary: 'Emit a catalog event',
        description: `Like \`stripe trigger\`: one notification per subscription of the tenant to the event (and version, when given), delivered and retried as real ones. ${TENANT_NOTE}`,
        security: TENANT_CREDENTIALS,
        body: EventBody.schema,
        response: {
          202: jsonAnswer('Emitted.', Emission),
          ...problemAnswers(...BODY_PROBLEMS, NO_TENANT, codedProblemDoc('NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND')),
        },
      },
      config: { fieldDetails: EventBody.details },
      preValidation: [scoped, parseJsonBody],
    },
    async (req, reply) => {
      const tenant = tenantOf(req);
      const { eventName, eventVersion, data } = req.body;
      const emission = services.engine.emit(tenant, {
        eventName,
        ...(eventVersion !== undefined ? { eventVersion } : {}),
        ...(data !== undefined ? { data } : {}),
      });
      if ('error' in emission) {
        const parameters = { eventName, eventVersion: eventVersion ?? null };
        return send(
          reply,
          codedProblem(
            baseUrlOf(req),
            'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
            `The environment has no event '${eventName}'${eventVersion !== undefined ? ` version ${String(eventVersion)}` : ''}.`,
            refOf(req),
            parameters,
          ),
        );
      }
      return send(reply, ok(202, emission));
    },
  );
}
