import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { CatalogTexts } from './kinds.js';
import { type Node, type Observation, markObserved, observedOn, operationById, responsesOf } from './publish-marks.js';
import type { AttemptRecord, EventIdCarrier } from './shapes.js';

/**
 * Published decisions that the document states in prose only: whose texts the error catalog carries (Errors / Error
 * code catalog: "Conditions behind each code beyond what its name says: not shown"), and how a webhook delivery names
 * its event and how its attempts are recorded (Events, point 6; Resources / Webhook notification).
 */

function addSentence(node: Node, sentence: string): void {
  node.description = typeof node.description === 'string' ? `${node.description}\n\n${sentence}` : sentence;
}

function schema(doc: OpenAPIObject, name: string): Node | undefined {
  return (doc.components?.schemas as Record<string, Node> | undefined)?.[name];
}

/** `catalog-texts`: the success response of `getError` says whose titles and descriptions it carries. */
export function applyCatalogTexts(
  doc: OpenAPIObject,
  id: string,
  inferred: CatalogTexts,
  observed: CatalogTexts,
  at: Observation,
): void {
  if (inferred === observed) return;
  const responses = responsesOf(operationById(doc, 'getError'));
  const response = responses['200'] ?? Object.entries(responses).find(([k]) => /^2/.test(k))?.[1];
  if (!response) return;
  addSentence(
    response,
    observed === 'own'
      ? `Titles, descriptions and parameters are the deployment's own, not the contract's (${observedOn(at)}).`
      : `Titles, descriptions and parameters are the contract's (${observedOn(at)}).`,
  );
  markObserved(response, at, id, inferred);
}

/** `webhook-event-id`: the payload schema says which header and member carry the event identifier. */
export function applyWebhookEventId(
  doc: OpenAPIObject,
  id: string,
  inferred: EventIdCarrier,
  observed: EventIdCarrier,
  at: Observation,
): void {
  const payload = schema(doc, 'WebhookPayload');
  if (!payload) return;
  const header = observed.header ? `the \`${observed.header}\` header` : 'no header';
  const field = observed.field ? `the payload member \`${observed.field}\`` : 'no payload member';
  addSentence(payload, `The event identifier is carried by ${header} and ${field} (${observedOn(at)}).`);
  payload['x-event-id'] = { ...observed };
  markObserved(payload, at, id, inferred);
}

/** `webhook-attempt`: the attempt schema says how an accepted delivery and a manual retry are recorded. */
export function applyWebhookAttempt(
  doc: OpenAPIObject,
  id: string,
  inferred: AttemptRecord,
  observed: AttemptRecord,
  at: Observation,
): void {
  const attempt = schema(doc, 'DeliveryAttempt');
  if (!attempt) return;
  const success = observed.success
    ? observed.success.form === 'boolean'
      ? `\`${observed.success.field}\` is true`
      : `\`${observed.success.field}\` holds the receiver's 2xx status`
    : 'no member tells it';
  const manual = observed.manual
    ? `\`${observed.manual.field}\` is ${JSON.stringify(observed.manual.value)}`
    : 'no member tells it';
  addSentence(attempt, `An accepted delivery: ${success}; a manual retry: ${manual} (${observedOn(at)}).`);
  attempt['x-attempt-record'] = structuredClone(observed);
  markObserved(attempt, at, id, inferred);
}
