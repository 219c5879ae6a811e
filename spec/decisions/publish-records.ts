import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { ListForm } from './kinds.js';
import {
  type Node,
  type Observation,
  isPlainObject,
  markObserved,
  operationById,
  responsesOf,
} from './publish-marks.js';
import type { FieldShape, RecordShape } from './shapes.js';

/**
 * The records a deployment answers, published: the members of each operation's records (`record-fields:<op>`), the
 * form of its collections (`list-form:<op>`) and the members of its webhook payloads (`webhook-payload`). Resources
 * lists the documented members and says the others are "not shown"; the contract named its own. Where the target was
 * observed, a record schema keeps every documented member as the contract has it (what the reference states stays
 * binding) and names the observed members instead of the contract's other ones: required when every record observed
 * carried them, typed as observed. Such a schema is written inline in the response it belongs to (the component stays
 * for the operations not observed) and marked observed.
 */

/** A member's schema from the JSON types it was seen with. */
function typedAs(field: FieldShape): Node {
  const types = field.types.length > 0 ? field.types : ['string'];
  return {
    ...(types.length === 1 ? { type: types[0] } : { type: [...types] }),
    description: `observed member${field.always ? '' : ' (absent from some records)'}`,
    'x-provenance': 'observed',
  };
}

/** Resolves a local `$ref` of the document (one level at a time, up to a few). */
function resolve(doc: OpenAPIObject, schema: Node | undefined): Node | undefined {
  let s = schema;
  for (let i = 0; i < 5 && typeof s?.$ref === 'string'; i++) {
    const path = (s.$ref as string).replace(/^#\//, '').split('/');
    let at: unknown = doc;
    for (const part of path) at = isPlainObject(at) ? at[part] : undefined;
    s = isPlainObject(at) ? at : undefined;
  }
  return s;
}

/**
 * A record schema adapted to an observed shape: documented members kept as they are (and required as they were);
 * every other member of the contract dropped unless it was observed; observed members typed as observed.
 */
function adaptedRecord(doc: OpenAPIObject, contract: Node | undefined, shape: RecordShape): Node {
  const base = resolve(doc, contract) ?? {};
  const properties = (base.properties ?? {}) as Record<string, Node>;
  const required = new Set<string>((base.required as string[] | undefined) ?? []);
  const documented = Object.entries(properties).filter(([, p]) => p['x-provenance'] === 'documented');
  const out: Record<string, Node> = Object.fromEntries(documented.map(([name, p]) => [name, structuredClone(p)]));
  const must = new Set(documented.map(([name]) => name).filter((name) => required.has(name)));
  for (const field of shape.fields) {
    if (out[field.name]) continue;
    out[field.name] = typedAs(field);
    if (field.always) must.add(field.name);
  }
  return {
    type: 'object',
    ...(typeof base.description === 'string' ? { description: base.description } : {}),
    additionalProperties: true,
    required: [...must].sort(),
    properties: out,
  };
}

/** The JSON body schema of a success response (the first 2xx), with the response. */
function successBody(doc: OpenAPIObject, operationId: string): { response: Node; media: Node } | undefined {
  const responses = responsesOf(operationById(doc, operationId));
  const status = Object.keys(responses).find((k) => /^2\d\d$/.test(k));
  const response = status === undefined ? undefined : responses[status];
  if (!response) return undefined;
  const content = (response.content ?? {}) as Record<string, Node>;
  const media = content['application/json'] ?? Object.values(content)[0];
  if (media) return { response, media };
  // A response without content (204 moved to 200, say) gains one for the body observed.
  const created: Node = { schema: { type: 'object' } };
  response.content = { 'application/json': created };
  return { response, media: created };
}

/** The page envelope of a schema (its `results` items), or undefined when the schema is not an envelope. */
function envelopeItems(doc: OpenAPIObject, schema: Node | undefined): Node | undefined {
  const s = resolve(doc, schema);
  const results = (s?.properties as Record<string, Node> | undefined)?.results;
  return results?.type === 'array' ? ((results.items as Node | undefined) ?? {}) : undefined;
}

/** The page envelope of Resources / Page of results around an item schema (inline). */
function envelopeOf(doc: OpenAPIObject, items: Node): Node {
  const page = Object.values((doc.components?.schemas ?? {}) as Record<string, Node>).find(
    (s) => envelopeItems(doc, s) !== undefined,
  );
  const envelope = structuredClone(page ?? { type: 'object', properties: {} }) as Node;
  (envelope.properties as Record<string, Node>).results = { type: 'array', items };
  envelope.description = 'A page of results (Resources / Page of results).';
  delete envelope.title;
  return envelope;
}

/** `record-fields:<op>`: the response's records adapted to the observed shape, inline, the response marked. */
export function applyRecordFields(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: RecordShape,
  shape: RecordShape,
  at: Observation,
): void {
  const found = successBody(doc, operationId);
  if (!found) return;
  const schema = found.media.schema as Node | undefined;
  const items = envelopeItems(doc, schema);
  const resolved = resolve(doc, schema);
  if (items !== undefined) {
    const envelope = structuredClone(resolve(doc, schema)) as Node;
    (envelope.properties as Record<string, Node>).results = { type: 'array', items: adaptedRecord(doc, items, shape) };
    found.media.schema = envelope;
  } else if (resolved?.type === 'array')
    found.media.schema = { ...structuredClone(resolved), items: adaptedRecord(doc, resolved.items as Node, shape) };
  else found.media.schema = adaptedRecord(doc, schema, shape);
  delete found.media.example;
  markObserved(found.response, at, id, { fields: inferred.fields.map((f) => f.name) });
}

/** `list-form:<op>`: the collection answered as the observed form, around the same item schema. */
export function applyListForm(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: ListForm,
  observed: ListForm,
  at: Observation,
): void {
  const found = successBody(doc, operationId);
  if (!found || inferred === observed) return;
  const schema = found.media.schema as Node | undefined;
  const resolved = resolve(doc, schema);
  const items = observed === 'envelope' ? (resolved?.items as Node | undefined) : envelopeItems(doc, schema);
  if (!items) return;
  found.media.schema =
    observed === 'envelope' ? envelopeOf(doc, items) : { type: 'array', description: 'observed bare array', items };
  delete found.media.example;
  markObserved(found.response, at, id, inferred);
}

/** `webhook-payload`: the `WebhookPayload` component adapted to the members of the deliveries observed. */
export function applyWebhookPayload(
  doc: OpenAPIObject,
  id: string,
  inferred: RecordShape,
  shape: RecordShape,
  at: Observation,
): void {
  const schemas = doc.components?.schemas as Record<string, Node> | undefined;
  const payload = schemas?.WebhookPayload;
  if (!schemas || !payload) return;
  const adapted: Node = { ...adaptedRecord(doc, payload, shape), description: payload.description };
  markObserved(adapted, at, id, { fields: inferred.fields.map((f) => f.name) });
  schemas.WebhookPayload = adapted;
}
