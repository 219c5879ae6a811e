import { Type, type TString } from '@sinclair/typebox';
import { MAX_NAME_LENGTH, inferredMaxLength } from '../limits.js';
import { nonEmptyId } from '../provenance.js';
import type { Quote } from '../reference/index.js';
import type { PathParam } from './types.js';

/**
 * The schema of a path parameter: a string (the reference types path parameters as strings), not empty and at most
 * 200 characters (both inferred, marked beside their keywords).
 */
export const pathString = (): TString =>
  Type.String({ ...nonEmptyId(), ...inferredMaxLength(MAX_NAME_LENGTH, PATH_LENGTH_RATIONALE) });

const PATH_LENGTH_RATIONALE =
  'The length of path parameters is not shown; identifiers and references take at most 200 characters, as in request bodies (spec/limits.ts).';

/** A path parameter's description with where its example comes from, when that needs saying (create-then-use). */
const describe = (text: string, exampleNote?: string): string =>
  exampleNote ? `${text}. Example: ${exampleNote}` : text;

/** `{id}` path parameter of a resource addressed by identifier, with an example that exists in the `demo` tenant. */
export const idParam = (what: string, example: string, exampleNote?: string): PathParam => ({
  name: 'id',
  description: describe(`identifier of the ${what}`, exampleNote),
  schema: pathString(),
  example,
});

/** `{skuReference}` (Endpoints / Update SKU stock, Update a SKU inspection definition), with the row that gives it. */
export const skuReferenceParam = (example: string, quote: Quote): PathParam => ({
  name: 'skuReference',
  description: 'reference of the SKU',
  schema: pathString(),
  example,
  quote,
});
