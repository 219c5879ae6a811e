import type { PathItemObject, SchemaObject } from 'openapi3-ts/oas31';
import { EVENT_CATALOG } from './events/catalog.js';
import { documented, inferred } from './provenance.js';
import { openObject } from './schemas/open.js';

/** Component name of the payload of one event version, e.g. `WarehouseShipmentShippedV1Payload`. */
export function payloadComponentName(eventName: string, version: number): string {
  return `${eventName.replace(/\./g, '')}V${version}Payload`;
}

/** The webhook key of one event version in the document's `webhooks`, e.g. `Warehouse.Shipment.Shipped.v1`. */
function webhookKey(eventName: string, version: number): string {
  return `${eventName}.v${version}`;
}

/** `X-HMAC-Signature` (Authentication, point 5). */
const SIGNATURE_HEADER = {
  name: 'X-HMAC-Signature',
  in: 'header' as const,
  required: true,
  description:
    'HMAC-SHA256 of the unmodified raw body with the signing secret, as 64 lowercase hexadecimal characters. Receivers recompute it over the raw bytes and compare in constant time; re-serialising parsed JSON may break the match.',
  schema: { type: 'string' as const, pattern: '^[0-9a-f]{64}$' },
  ...documented('auth.5.signature'),
};

/** The event id header (inferred: the reference does not say which field or header carries the event identifier). */
const EVENT_ID_HEADER = {
  name: 'X-Event-Id',
  in: 'header' as const,
  required: true,
  description: 'The event identifier (same as `id` in the body); receivers store it to drop duplicates.',
  schema: { type: 'string' as const, minLength: 1 },
  ...inferred('The field or header that carries the event identifier is not shown.'),
};

const SHOWN_PAYLOAD = 'Payload shape of a delivered notification is not shown.';
const PAYLOAD_MARKS = inferred(SHOWN_PAYLOAD);

/** Marks a payload `data` schema and each of its properties as inferred. */
function markProperties(schema: SchemaObject, rationale: string): SchemaObject {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, prop]) => [
      name,
      { ...(prop as object), ...inferred(rationale) },
    ]),
  );
  return { ...schema, properties, ...inferred(rationale) };
}

/** Payload schemas per event version: the common envelope with `eventName`/`eventVersion` fixed and `data` typed. */
export function payloadSchemas(): Record<string, SchemaObject> {
  const out: Record<string, SchemaObject> = {};
  for (const event of EVENT_CATALOG) {
    for (const v of event.versions) {
      out[payloadComponentName(event.eventName, v.version)] = {
        type: 'object',
        description: `${event.description} (version ${v.version}${v.deprecated ? ', superseded' : ''})`,
        // Open like WebhookPayload; `data` keeps the openness of its catalog schema (fixtures/events.ts).
        ...openObject('Events, point 6: "Payload shape of a delivered notification: not shown".'),
        required: ['id', 'eventName', 'eventVersion', 'occurredAt', 'orgCode', 'data'],
        properties: {
          id: {
            type: 'string',
            minLength: 1,
            description: 'event identifier (also the X-Event-Id header)',
            ...PAYLOAD_MARKS,
          },
          eventName: { const: event.eventName, ...PAYLOAD_MARKS },
          eventVersion: { const: v.version, ...PAYLOAD_MARKS },
          occurredAt: { type: 'string', format: 'date-time', ...PAYLOAD_MARKS },
          orgCode: { type: 'string', ...PAYLOAD_MARKS },
          data: markProperties(JSON.parse(JSON.stringify(v.data)) as SchemaObject, event.rationale ?? SHOWN_PAYLOAD),
        },
        ...(event.provenance === 'documented'
          ? inferred(`The event name ${event.eventName} is documented; its payload is not shown.`)
          : inferred(event.rationale ?? '')),
      };
    }
  }
  return out;
}

/** The document's `webhooks`: one entry per event version, each a POST to the subscriber's endpoint. */
export function webhookItems(): Record<string, PathItemObject> {
  const out: Record<string, PathItemObject> = {};
  for (const event of EVENT_CATALOG) {
    for (const v of event.versions) {
      out[webhookKey(event.eventName, v.version)] = {
        post: {
          operationId: `on${event.eventName.replace(/\./g, '')}V${v.version}`,
          summary: `${event.eventName} v${v.version}`,
          description: `${event.description} Sent to every subscription of ${event.eventName} version ${v.version}. Answer 2xx quickly and process in the background; anything else, a timeout or a connection error counts as a failed attempt and is retried on the schedule.`,
          tags: ['Webhooks'],
          // No API credential: the receiver authenticates the sender by the X-HMAC-Signature header (Authentication, point 5).
          security: [],
          parameters: [SIGNATURE_HEADER, EVENT_ID_HEADER],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: `#/components/schemas/${payloadComponentName(event.eventName, v.version)}` },
              },
            },
          },
          responses: {
            '2XX': {
              description: 'Accepted: the notification becomes Success (documented).',
              ...documented('events.4.accept'),
            },
          },
          // A shown name is documented (Events, point 2); its versions and payloads are the environment's own.
          ...(event.provenance === 'documented' ? documented('events.2.names') : inferred(event.rationale ?? '')),
        },
      };
    }
  }
  return out;
}
