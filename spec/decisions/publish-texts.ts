import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { KEY_WITH_BEARER } from '../credentials.js';
import { OPERATOR_SEMANTICS, type FilterOperator } from '../lists/operators.js';
import type { OtherKeyRule, TextCase } from './points.js';
import { type Node, type Observation, markObserved, observedOn, operationById } from './publish-marks.js';

/** The operators whose case rule `text-case` settles (spec/lists/operators.ts); `equals-case` settles `Equals`'s. */
export const TEXT_OPERATORS = ['Contains', 'StartsWith', 'EndsWith'] as const;

/** Every object of a document, depth first. */
function* objectsOf(value: unknown): Generator<Node> {
  if (typeof value !== 'object' || value === null) return;
  if (!Array.isArray(value)) yield value as Node;
  for (const child of Object.values(value)) yield* objectsOf(child);
}

/**
 * `text-case` and `equals-case`: the lines of `operators` in every description that lists the operators (the
 * `filterBy` parameters, from `OPERATOR_SEMANTICS`) say the observed case rule instead of the inferred one
 * (`inferred: case-<rule>` -> `observed at <target> on <date>: case-<rule>`), and the nodes changed are marked observed.
 */
export function applyCaseRule(
  doc: OpenAPIObject,
  id: string,
  operators: readonly FilterOperator[],
  inferred: TextCase,
  observed: TextCase,
  at: Observation,
): void {
  const lines = operators.map((op) => {
    const line = `- \`${op}\`: ${OPERATOR_SEMANTICS[op]}`;
    return [line, line.replace(`inferred: case-${inferred}`, `${observedOn(at)}: case-${observed}`)] as const;
  });
  for (const node of objectsOf(doc)) {
    if (typeof node.description !== 'string') continue;
    const text = lines.reduce((t, [from, to]) => t.replaceAll(from, to), node.description);
    if (text === node.description) continue;
    node.description = text;
    markObserved(node, at, id, inferred);
  }
}

/** `default-order:<operationId>`: the list's `sortBy` parameter (or its search body) says the observed default. */
export function applyDefaultOrder(
  doc: OpenAPIObject,
  id: string,
  operationId: string,
  inferred: string,
  observed: string,
  at: Observation,
): void {
  const op = operationById(doc, operationId);
  const parameters = (op?.parameters ?? []) as Node[];
  const node = parameters.find((p) => p.name === 'sortBy' && p.in === 'query') ?? (op?.requestBody as Node | undefined);
  if (!node) return;
  const field = observed.replace(/^-/, '');
  const direction = observed.startsWith('-') ? 'descending' : 'ascending';
  const order = observed === 'none' ? 'in no order of one field' : `ordered by \`${field}\` ${direction}`;
  const sentence = `Without \`sortBy\` the list is ${order} (${observedOn(at)}; the contract inferred \`${inferred}\`).`;
  node.description = typeof node.description === 'string' ? `${node.description}\n${sentence}` : sentence;
  markObserved(node, at, id, inferred);
}

/** What each rule says of an X-Api-Key sent with a valid bearer token. */
const KEY_RULES: Readonly<Record<OtherKeyRule, string>> = {
  refused: KEY_WITH_BEARER.rule,
  ignored:
    'An X-Api-Key next to a valid bearer token is not checked: the bearer token alone authenticates the request, even when the key is unknown or of another tenant.',
};

/** The sentence of the ApiKey scheme's description that states the inferred rule (spec/build.ts). */
const SCHEME_SENTENCE = /When both credentials are sent,.*?\(inferred, `x-with-bearer`\)\./s;

/** `other-api-key-with-bearer`: the `x-with-bearer` rule of the ApiKey scheme, and the sentence that states it. */
export function applyOtherKey(
  doc: OpenAPIObject,
  id: string,
  inferred: OtherKeyRule,
  observed: OtherKeyRule,
  at: Observation,
): void {
  const scheme = doc.components?.securitySchemes?.ApiKey as Node | undefined;
  const rule = scheme?.['x-with-bearer'] as Node | undefined;
  if (!scheme || !rule) return;
  rule.rule = KEY_RULES[observed];
  markObserved(rule, at, id, inferred);
  if (typeof scheme.description === 'string')
    scheme.description = scheme.description.replace(
      SCHEME_SENTENCE,
      `When both credentials are sent (${observedOn(at)}, \`x-with-bearer\`): ${KEY_RULES[observed]}`,
    );
}
