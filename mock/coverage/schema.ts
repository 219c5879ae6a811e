import { Type, type Static } from '@sinclair/typebox';

/**
 * The answer of `GET /__mock/coverage` and of `tenant(org).coverage()` (docs/DESIGN.md, "Testing API"): which operations,
 * and which status/code pairs the contract declares for each, a tenant's traffic has exercised. Inferred
 * throughout: the reference does not know the admin API.
 */

/** One operation of the contract and how many times the tenant called it (any answer). */
export const CoverageOperation = Type.Object({
  operationId: Type.String(),
  /** Upper case, as on the wire. */
  method: Type.String(),
  /** The contract's path template, `/v1/...` with `{param}`. */
  path: Type.String(),
  called: Type.Integer({ minimum: 0 }),
});

/**
 * One answer the contract declares for an operation: its success, or an error status with one of its
 * `x-error-codes` (`code: null` for a status answered without a code, such as the plain 401), and how many times
 * the tenant got it. `provenance` is that of the response in the contract (`x-provenance`).
 */
export const CoveragePair = Type.Object({
  operationId: Type.String(),
  status: Type.Integer(),
  code: Type.Union([Type.String(), Type.Null()]),
  provenance: Type.Union([Type.Literal('documented'), Type.Literal('inferred')]),
  hit: Type.Integer({ minimum: 0 }),
});

/** How many of `total` were exercised at least once. */
const CoverageTally = Type.Object({ hit: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) });

export const CoverageBody = Type.Object({
  operations: Type.Array(CoverageOperation),
  pairs: Type.Array(CoveragePair),
  summary: Type.Object({ operations: CoverageTally, pairs: CoverageTally }),
});

export type CoverageOperation = Static<typeof CoverageOperation>;
export type CoveragePair = Static<typeof CoveragePair>;
export type Coverage = Static<typeof CoverageBody>;
