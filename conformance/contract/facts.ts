import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { Level } from '../types.js';

/**
 * The facts of the contract a check rests on, and the level they give it. A fact is a node of the contract document
 * named by a JSON pointer (RFC 6901): an operation, a response, a schema property, a parameter, a catalog entry, a
 * decision. Its provenance is the node's `x-provenance`, or, when the pointer ends at a mark such as
 * `x-status-provenance` (the status of a catalog code) or `x-permission-provenance`, that mark's value. A check
 * resting only on documented facts is MUST; one that rests on any inferred fact is SHOULD ("MUST means documented,
 * and only that"). The level is derived, never written by hand, so relabelling a fact in `spec/` moves every check
 * that rests on it.
 */
export type Fact = string;

/** A pointer's tokens, unescaped (`~1` is `/`, `~0` is `~`). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON pointer: ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Escapes one token of a pointer. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The node a pointer names, or undefined. */
function resolve(document: unknown, pointer: string): unknown {
  let node: unknown = document;
  for (const token of tokens(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The provenance of one fact; throws when the pointer names no node with a provenance (a broken reference). */
function provenanceOf(document: OpenAPIObject, fact: Fact): 'documented' | 'inferred' {
  const node = resolve(document, fact);
  const value = typeof node === 'string' ? node : (node as { 'x-provenance'?: unknown } | undefined)?.['x-provenance'];
  if (value === 'documented' || value === 'inferred') return value;
  throw new Error(`the contract has no provenance at ${fact}`);
}

/** MUST when every fact is documented; SHOULD when any is inferred. */
export function levelOfFacts(document: OpenAPIObject, facts: readonly Fact[]): Level {
  if (facts.length === 0) throw new Error('a check rests on at least one fact');
  return facts.every((f) => provenanceOf(document, f) === 'documented') ? 'MUST' : 'SHOULD';
}

/** Pointers to the nodes checks rest on, built from names (so a renamed node fails loudly at load, in a test). */
export const at = {
  operation: (path: string, method: string): Fact => `/paths/${escapeToken(path)}/${method}`,
  response: (path: string, method: string, status: number | string): Fact =>
    `/paths/${escapeToken(path)}/${method}/responses/${status}`,
  permission: (path: string, method: string): Fact => `/paths/${escapeToken(path)}/${method}/x-permission-provenance`,
  apiKey: (path: string, method: string): Fact => `/paths/${escapeToken(path)}/${method}/x-api-key-provenance`,
  schema: (name: string): Fact => `/components/schemas/${escapeToken(name)}`,
  property: (schema: string, property: string): Fact =>
    `/components/schemas/${escapeToken(schema)}/properties/${escapeToken(property)}`,
  parameter: (name: string): Fact => `/components/parameters/${escapeToken(name)}`,
  header: (name: string): Fact => `/components/headers/${escapeToken(name)}`,
  scheme: (name: string): Fact => `/components/securitySchemes/${escapeToken(name)}`,
  decision: (id: string): Fact => `/x-behaviour/${escapeToken(id)}`,
};
