import type { TObject, TSchema } from '@sinclair/typebox';
import type { WebhookPayload } from '../../spec/schemas/notifications.js';
import type { EventVersionDef } from '../../spec/events/catalog.js';

/**
 * Keeps only the properties a version's `data` schema declares, filling required ones the source lacks with
 * null, so one change can be announced to subscribers of every version of its event.
 */
export function projectData(version: EventVersionDef, data: Record<string, unknown>): Record<string, unknown> {
  const schema = version.data as TObject;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(schema.properties)) {
    if (name in data) out[name] = data[name];
    else if ((schema.required ?? []).includes(name)) out[name] = defaultFor(schema.properties[name]);
  }
  return out;
}

function defaultFor(schema: TSchema | undefined): unknown {
  if (!schema) return null;
  if (schema.type === 'array') return [];
  if (schema.type === 'number' || schema.type === 'integer') return 0;
  if (schema.type === 'boolean') return false;
  if (schema.type === 'string') return '';
  return null;
}

/** The payload delivered for one notification (inferred shape, docs/DESIGN.md, "Defaults for what the reference leaves open": `{id, eventName, eventVersion, occurredAt, orgCode, data}`). */
export function buildPayload(
  eventId: string,
  eventName: string,
  eventVersion: number,
  occurredAt: string,
  orgCode: string,
  data: Record<string, unknown>,
): WebhookPayload {
  return { id: eventId, eventName, eventVersion, occurredAt, orgCode, data };
}

/** The exact bytes sent and signed. Serialised once per attempt from the stored payload; compact JSON. */
export function serialisePayload(payload: WebhookPayload): string {
  return JSON.stringify(payload);
}
