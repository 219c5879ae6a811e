import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { RetryDelay, RetryDelayUnit } from './points.js';
import {
  type Node,
  type Observation,
  markObserved,
  observedOn,
  operationById,
  operationsOf,
  responsesOf,
} from './publish-marks.js';

/** `success-status:<operationId>`: the success response moves to the observed status, content and links kept. */
export function applySuccessStatus(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: number,
  observed: number,
  at: Observation,
): void {
  const responses = responsesOf(operationById(doc, operationId));
  const from = String(inferred) in responses ? String(inferred) : Object.keys(responses).find((k) => /^2/.test(k));
  const response = from === undefined ? undefined : responses[from];
  if (from === undefined || !response) return;
  if (from !== String(observed)) {
    delete responses[from];
    // Status keys are integer-like, so the object keeps them in ascending order wherever the new one lands.
    responses[String(observed)] = response;
  }
  markObserved(response, at, id, inferred);
}

/** How each unit of a retry delay is written: header description, schema, and a phrase for the 429's description. */
const UNITS: Readonly<Record<RetryDelayUnit, { description: string; schema: Node; phrase: string }>> = {
  seconds: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
    phrase: 'seconds to wait',
  },
  milliseconds: {
    description: 'Milliseconds to wait before retrying.',
    schema: { type: 'integer', minimum: 0 },
    phrase: 'milliseconds to wait',
  },
  'epoch-seconds': {
    description: 'The time to retry at, in seconds since the Unix epoch (1970-01-01T00:00:00Z).',
    schema: { type: 'integer', minimum: 0 },
    phrase: 'the time to retry at, in seconds since the Unix epoch',
  },
  'http-date': {
    description:
      'The time to retry at, as an HTTP-date (RFC 9110, section 5.6.7), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`.',
    schema: { type: 'string' },
    phrase: 'the time to retry at, as an HTTP-date',
  },
};

const RETRY_AFTER_REF = '#/components/headers/RetryAfter';

/**
 * `retry-delay`: every 429 response tells the delay in the observed header and unit instead of the contract's
 * `Retry-After` (seconds). The header is written in each response, marked; the `RetryAfter` component goes once
 * nothing refers to it any more.
 */
export function applyRetryDelay(
  doc: OpenAPIObject,
  id: string,
  inferred: RetryDelay,
  observed: RetryDelay,
  at: Observation,
): void {
  const headers = doc.components?.headers as Record<string, Node> | undefined;
  const rationale = headers?.RetryAfter?.['x-rationale'];
  const unit = UNITS[observed.unit];
  const replaced = new Set([inferred.header.toLowerCase(), observed.header.toLowerCase()]);
  for (const op of operationsOf(doc)) {
    const response = responsesOf(op)['429'];
    if (!response) continue;
    const header: Node = {
      description: `${unit.description} This header was ${observedOn(at)}.`,
      schema: structuredClone(unit.schema),
      'x-provenance': 'inferred',
      ...(typeof rationale === 'string' ? { 'x-rationale': rationale } : {}),
    };
    markObserved(header, at, id, inferred);
    const kept = Object.entries((response.headers ?? {}) as Node).filter(([name]) => !replaced.has(name.toLowerCase()));
    response.headers = { ...Object.fromEntries(kept), [observed.header]: header };
    if (typeof response.description === 'string')
      response.description = response.description.replace(
        new RegExp(`\`${inferred.header}\` \\([^)]*\\)`),
        `\`${observed.header}\` (${unit.phrase}; ${observedOn(at)})`,
      );
  }
  if (headers?.RetryAfter && !JSON.stringify(doc).includes(`"${RETRY_AFTER_REF}"`)) {
    delete headers.RetryAfter;
    if (Object.keys(headers).length === 0) delete doc.components?.headers;
  }
}
