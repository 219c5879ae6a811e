import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { KeyRule, ProblemMediaType } from './kinds.js';
import {
  type Node,
  type Observation,
  isPlainObject,
  markObserved,
  observedOn,
  operationById,
  operationsOf,
  responsesOf,
} from './publish-marks.js';

/**
 * Published decisions about problems and credentials: the media type of problems and the address of the plain 401
 * (Errors / Problem body), what an API key does alone or beside the bearer token (Authentication, points 1-2), and
 * the permission an operation needs (Authentication, point 4: "Mapping of roles to permissions: not shown").
 */

const PROBLEM_JSON = 'application/problem+json';

/** `problem-media-type`: every problem response's content is keyed by the observed media type. */
export function applyProblemMediaType(
  doc: OpenAPIObject,
  id: string,
  inferred: ProblemMediaType,
  observed: ProblemMediaType,
  at: Observation,
): void {
  if (inferred === observed) return;
  for (const op of operationsOf(doc))
    for (const response of Object.values(responsesOf(op))) {
      const content = response.content as Record<string, Node> | undefined;
      const media = content?.[PROBLEM_JSON];
      if (!content || !media || inferred !== PROBLEM_JSON) continue;
      delete content[PROBLEM_JSON];
      content[observed] = media;
      markObserved(response, at, id, inferred);
    }
}

/** Every `x-problem-type` of a plain 401 (spec/schemas/problem.ts `plain401Type`). */
function* problemTypes(value: unknown): Generator<Node> {
  if (!isPlainObject(value) && !Array.isArray(value)) return;
  if (isPlainObject(value) && isPlainObject(value['x-problem-type'])) yield value['x-problem-type'];
  for (const child of Object.values(value as object)) yield* problemTypes(child);
}

/** `problem-401-type`: the address the plain 401 sends (`preferred`) is the observed one. */
export function applyProblem401Type(
  doc: OpenAPIObject,
  id: string,
  inferred: string,
  observed: string,
  at: Observation,
): void {
  for (const node of problemTypes(doc.paths)) {
    node.preferred = observed;
    markObserved(node, at, id, inferred, { provenance: 'x-preferred-provenance', rationale: 'x-preferred-rationale' });
  }
}

/** The ApiKey security scheme, whose description states the credential rules. */
function apiKeyScheme(doc: OpenAPIObject): Node | undefined {
  return doc.components?.securitySchemes?.ApiKey as Node | undefined;
}

function note(scheme: Node, sentence: string): void {
  scheme.description = `${typeof scheme.description === 'string' ? `${scheme.description} ` : ''}${sentence}`;
}

/**
 * `api-key-alone` refused: no operation lists the API key as a requirement by itself any more; the key goes with the
 * bearer token (`{JWTApiKey, ApiKey}`) or not at all. The scheme's description says so.
 */
export function applyApiKeyAlone(
  doc: OpenAPIObject,
  id: string,
  inferred: KeyRule,
  observed: KeyRule,
  at: Observation,
): void {
  const scheme = apiKeyScheme(doc);
  if (!scheme || inferred === observed) return;
  if (observed === 'refused')
    for (const op of operationsOf(doc)) {
      const security = op.security as Record<string, string[]>[] | undefined;
      if (!security?.some((r) => Object.keys(r).length === 1 && 'ApiKey' in r)) continue;
      op.security = [{ JWTApiKey: [] }, { JWTApiKey: [], ApiKey: [] }];
    }
  note(
    scheme,
    `An API key alone (without a bearer token) is ${observed} (${observedOn(at)}; the contract inferred ${inferred}).`,
  );
  markObserved(scheme, at, id, inferred);
}

/** `key-repeating-bearer`: what an X-Api-Key equal to the bearer token gets, in the `x-with-bearer` rule. */
export function applyKeyRepeatingBearer(
  doc: OpenAPIObject,
  id: string,
  inferred: KeyRule,
  observed: KeyRule,
  at: Observation,
): void {
  const scheme = apiKeyScheme(doc);
  const rule = scheme?.['x-with-bearer'] as Node | undefined;
  if (!scheme || !rule || inferred === observed) return;
  const sentence = `An X-Api-Key equal to the bearer token of the same request is ${observed === 'refused' ? 'refused with the plain 401: it is looked up as a key' : 'accepted as that credential sent twice'} (${observedOn(at)}).`;
  rule.rule = `${typeof rule.rule === 'string' ? `${rule.rule} ` : ''}${sentence}`;
  markObserved(rule, at, id, inferred);
}

/** `permission:<op>`: the operation's `x-permission` is the one its 403 named (null for none). */
export function applyPermission(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: string,
  observed: string,
  at: Observation,
): void {
  const op = operationById(doc, operationId);
  if (!op || inferred === observed) return;
  op['x-permission'] = observed === 'none' ? null : observed;
  markObserved(op, at, id, inferred, { provenance: 'x-permission-provenance', rationale: 'x-permission-rationale' });
}
