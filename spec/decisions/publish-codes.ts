import type { OpenAPIObject } from 'openapi3-ts/oas31';
import {
  type Node,
  type Observation,
  STATUS_KEYS,
  markObserved,
  observedOn,
  operationsOf,
  responsesOf,
} from './publish-marks.js';

/** One `code-status:<CODE>` decision: the code, the contract's status and the observed one. */
export interface CodeMove {
  id: string;
  code: string;
  inferred: number;
  observed: number;
}

const PROBLEM_CONTENT = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** The ` Codes: `A`, `B`.` ending spec/build.ts gives every error response's description. */
const CODES_SUFFIX = /\s*Codes: (`[^`]+`(, )?)+\.$/;

/**
 * Applies the observed status of error codes: the catalog entry's `status` (its `x-status-provenance` becomes
 * observed) and, in every operation whose responses list the code in `x-error-codes`, the code moves from the
 * response of the contract's status to the response of the observed one, which is created when missing.
 */
export function applyCodeStatuses(doc: OpenAPIObject, moves: readonly CodeMove[], at: Observation): void {
  if (moves.length === 0) return;
  const catalog = (doc['x-error-catalog'] ?? []) as Node[];
  const codesBefore = new Map<Node, number>();
  for (const op of operationsOf(doc))
    for (const response of Object.values(responsesOf(op))) codesBefore.set(response, codesOf(response)?.length ?? 0);

  for (const move of moves) {
    const entry = catalog.find((e) => e.code === move.code);
    if (entry) {
      entry.status = move.observed;
      markObserved(entry, at, move.id, move.inferred, STATUS_KEYS);
    }
    for (const op of operationsOf(doc)) moveInOperation(op, move, at);
  }
  for (const op of operationsOf(doc)) removeEmptied(op, codesBefore);
}

function moveInOperation(op: Node, move: CodeMove, at: Observation): void {
  const responses = responsesOf(op);
  const to = String(move.observed);
  const inferred = { [move.code]: move.inferred };
  for (const [from, response] of Object.entries(responses)) {
    const codes = codesOf(response);
    if (!codes?.includes(move.code)) continue;
    if (from !== to) {
      setCodes(
        response,
        codes.filter((c) => c !== move.code),
        `\`${move.code}\` is answered with ${to}, not ${from} (${observedOn(at)}).`,
      );
      const target = responses[to] ?? newProblemResponse(response);
      responses[to] = target;
      const present = codesOf(target) ?? [];
      setCodes(
        target,
        present.includes(move.code) ? present : [...present, move.code],
        `\`${move.code}\` is answered with ${to}, not ${from} as the contract inferred (${observedOn(at)}).`,
      );
      markObserved(target, at, move.id, inferred);
    }
    markObserved(response, at, move.id, inferred);
  }
}

/** The catalog codes a response lists (`x-error-codes`), or undefined when it lists none (a success response). */
function codesOf(response: Node): string[] | undefined {
  const codes = response['x-error-codes'];
  return Array.isArray(codes) ? (codes as string[]) : undefined;
}

/** A problem response like the operation's others, for a status the contract did not give the operation. */
function newProblemResponse(like: Node): Node {
  return {
    description: 'Errors the target answers with this status where the contract inferred another.',
    content: structuredClone(like.content ?? PROBLEM_CONTENT),
    'x-error-codes': [],
  };
}

/** Sets a response's codes and rewrites the codes its description names, with a note of what moved. */
function setCodes(response: Node, codes: string[], note: string): void {
  const text = String(response.description ?? '').replace(CODES_SUFFIX, '');
  const list = codes.length ? ` Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.` : '';
  response.description = `${text} ${note}${list}`.trim();
  response['x-error-codes'] = codes;
}

/**
 * Removes the responses every code of which moved away (decided here, inferred): such a response existed only for
 * those codes, and keeping it would promise a status the target does not answer. A response that never had codes
 * (the plain 401) is not one of them, and a documented response stays with no codes: the reference lists its status
 * for the operation, which is reason enough for it to exist.
 */
function removeEmptied(op: Node, codesBefore: ReadonlyMap<Node, number>): void {
  const responses = responsesOf(op);
  for (const [status, response] of Object.entries(responses)) {
    const emptied = (codesBefore.get(response) ?? 0) > 0 && codesOf(response)?.length === 0;
    if (emptied && response['x-provenance'] !== 'documented') delete responses[status];
  }
}
