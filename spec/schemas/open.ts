import { inferred } from '../provenance.js';

/**
 * Openness of the contract's objects (inferred decisions, each with its rationale).
 *
 * Responses: a real server sends fields the reference does not show ("Other SKU fields: not shown", "Other fields
 * returned for a subscription: not shown"; RFC 9457 allows extension members in problems). A response object
 * therefore accepts members it does not name: `additionalProperties: true`, with the provenance of that opening in
 * `x-additional-properties-provenance` and `x-additional-properties-rationale` (like `x-permission-provenance`: a
 * boolean cannot carry marks, and an annotated schema there makes Prism invent `property1`/`property2` members in
 * its examples). Its named fields stay required and typed; the conformance runner lists the members it does not
 * name as information, never as a failure.
 *
 * Request bodies stay closed: `additionalProperties: false` with the decision in the body's own rationale.
 */

/** Why a request body rejects members it does not name (appended to each body's rationale). */
const UNKNOWN_FIELDS_REJECTED =
  'Unknown fields are rejected (400 COMMON.VALIDATION.ERROR naming the field) so typos are caught instead of silently ignored; the reference shows no other body field.';

/** Options of a closed request body: `additionalProperties: false`, marked inferred with the body's rationale and the closedness rule. */
export function closedBody(rationale: string): {
  additionalProperties: false;
  'x-provenance': 'inferred';
  'x-rationale': string;
} {
  return { additionalProperties: false, ...inferred(`${rationale} ${UNKNOWN_FIELDS_REJECTED}`) };
}

/** Tolerant-reader part of every opening's rationale. */
const TOLERATED =
  'Members the contract does not name are accepted (a client ignores them); the conformance runner lists them as information, never as a failure.';

/** The marks of an opening, as they appear in the document. */
interface OpenObject {
  additionalProperties: true;
  'x-additional-properties-provenance': 'inferred';
  'x-additional-properties-rationale': string;
}

/**
 * Options of a response object that accepts members it does not name, marked inferred with why it is open.
 * `notShown` cites the reference, e.g. 'Resources / Page of results: "Other SKU fields: not shown".'
 */
export function openObject(notShown: string, tolerated: string = TOLERATED): OpenObject {
  const marks = inferred(`${notShown} ${tolerated}`);
  return {
    additionalProperties: true,
    'x-additional-properties-provenance': marks['x-provenance'],
    'x-additional-properties-rationale': marks['x-rationale'],
  };
}
