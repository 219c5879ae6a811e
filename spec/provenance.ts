/**
 * Provenance marks. Every operation, response, schema, schema property and catalog entry of the contract
 * says where it comes from: `documented` (the API reference states it) or `inferred` (the reference says
 * "not shown" and this kit decided; the decision carries an `x-rationale`). The conformance runner enforces
 * documented behaviour as MUST and inferred behaviour as SHOULD.
 */
export type Provenance = 'documented' | 'inferred';

/** Marks a fact the reference states. */
export const documented = { 'x-provenance': 'documented' } as const;

/** Marks a decision the reference leaves open, with the reason for it. */
export function inferred(rationale: string): { 'x-provenance': 'inferred'; 'x-rationale': string } {
  return { 'x-provenance': 'inferred', 'x-rationale': rationale };
}

/** The provenance marks as they appear in the generated document. */
export type ProvenanceMarks = typeof documented | ReturnType<typeof inferred>;
