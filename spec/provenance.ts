import { type Quote, type ReferenceSentence, referenceSentence } from './reference/index.js';

/**
 * Provenance marks. Every operation, response, schema, schema property and catalog entry of the contract
 * says where it comes from: `documented` (the API reference states it, and the mark quotes the sentence in
 * `x-reference-quote`, with its section in `x-reference-section`) or `inferred` (the reference says "not shown" or
 * nothing, and this kit decided; the decision carries an `x-rationale`). The conformance runner enforces documented
 * behaviour as MUST and inferred behaviour as SHOULD.
 *
 * A fact of a node other than the node itself carries the same marks under a prefix (`factMarks`):
 * `x-permission-provenance` with `x-permission-reference-quote` or `x-permission-rationale`, `x-body-provenance` (what a
 * success body is, apart from its status), `x-status-provenance` (a catalog code's status), `x-presence-provenance` (a
 * documented parameter on an operation the reference does not name), and a JSON Schema keyword of a documented node
 * that the reference does not state, `x-minimum-provenance: inferred` (`inferredKeyword`).
 */
export type Provenance = 'documented' | 'inferred';

/** The marks of a documented fact, as they appear in the document. */
interface DocumentedMarks {
  'x-provenance': 'documented';
  'x-reference-quote': string;
  'x-reference-section': string;
}

/** Marks a fact the reference states, quoting the sentence (by id or text, see spec/reference/) it rests on. */
export function documented(quote: Quote): DocumentedMarks {
  const sentence = referenceSentence(quote);
  return { 'x-provenance': 'documented', 'x-reference-quote': sentence.text, 'x-reference-section': sentence.section };
}

/** Marks a decision the reference leaves open, with the reason for it. */
export function inferred(rationale: string): { 'x-provenance': 'inferred'; 'x-rationale': string } {
  return { 'x-provenance': 'inferred', 'x-rationale': rationale };
}

/** A fact with its provenance, as the TypeScript definitions hold it: a documented one quotes, an inferred one explains. */
export type Fact =
  | { readonly provenance: 'documented'; readonly quote: ReferenceSentence }
  | { readonly provenance: 'inferred'; readonly rationale: string };

/**
 * The marks of a fact under a prefix (`permission` gives `x-permission-provenance`, `x-permission-reference-quote`,
 * `x-permission-reference-section` or `x-permission-rationale`); without a prefix, the node's own marks.
 */
export function factMarks(fact: Fact, prefix = ''): Record<string, string> {
  const key = (name: string): string => `x-${prefix ? `${prefix}-` : ''}${name}`;
  return fact.provenance === 'documented'
    ? {
        [key('provenance')]: 'documented',
        [key('reference-quote')]: fact.quote.text,
        [key('reference-section')]: fact.quote.section,
      }
    : { [key('provenance')]: 'inferred', [key('rationale')]: fact.rationale };
}

/**
 * A JSON Schema keyword the reference does not state, on a node whose own mark may be `documented`: the keyword with
 * `x-<keyword>-provenance: inferred` and `x-<keyword>-rationale` beside it. The documented core of a response schema
 * (spec/documented-core.ts) leaves such a keyword out.
 */
export function inferredKeyword<K extends string, V>(
  keyword: K,
  value: V,
  rationale: string,
): { [P in K]: V } & { [P in `x-${K}-provenance`]: 'inferred' } & { [P in `x-${K}-rationale`]: string } {
  return {
    [keyword]: value,
    [`x-${keyword}-provenance`]: 'inferred',
    [`x-${keyword}-rationale`]: rationale,
  } as { [P in K]: V } & { [P in `x-${K}-provenance`]: 'inferred' } & { [P in `x-${K}-rationale`]: string };
}

/** Why an identifier must not be empty (inferred: the reference shows identifiers as strings only). */
const NON_EMPTY_ID_RATIONALE =
  'The reference shows identifiers and references as strings only; an empty one could address nothing (they are used in paths), so at least one character is expected.';

/** `minLength: 1` on an identifier or reference, marked inferred. */
export const nonEmptyId = () => inferredKeyword('minLength', 1, NON_EMPTY_ID_RATIONALE);
