import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { OperationDef } from '../../spec/operations/index.js';
import { longestJsonText } from '../../spec/json-text-size.js';
import { documentResolver } from '../../spec/unknown-fields.js';

/** The least body limit of an operation (inferred: room for any client's formatting of a small body). */
const MIN_OPERATION_BODY_LIMIT = 16 * 1024;

/**
 * The largest body an operation reads: twice the longest compact JSON text a valid body can be (spec/json-text-size.ts;
 * twice, for whatever whitespace a client's serialiser adds), rounded up to a power of two and at least 16 KiB, and
 * never more than `--body-limit` (`ceiling`), which stays the limit of bodies the schema does not bound.
 *
 * Inferred (Rate limits and sizes: "maximum request body sizes: not shown"): a larger body cannot be valid, so it gets
 * the 413 before it is read instead of a 400 after. Why it matters: on a shared mock, a tenant within its rate limit
 * sending 1 MB bodies to a 32 KiB operation made every other tenant wait behind their reading and parsing (bench
 * noisy-neighbour); refused from the declared Content-Length, they cost nearly nothing.
 */
export function operationBodyLimit(op: OperationDef, document: OpenAPIObject, ceiling: number): number {
  const schema = op.requestBody?.schema;
  if (!schema) return ceiling;
  const longest = longestJsonText({ $ref: `#/components/schemas/${schema}` }, documentResolver(document));
  if (!Number.isFinite(longest)) return ceiling;
  let limit = MIN_OPERATION_BODY_LIMIT;
  while (limit < 2 * longest) limit *= 2;
  return Math.min(limit, ceiling);
}
