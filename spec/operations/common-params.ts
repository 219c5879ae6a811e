import { Type } from '@sinclair/typebox';
import type { PathParam } from './types.js';

/** A path parameter's description with where its example comes from, when that needs saying (create-then-use). */
const describe = (text: string, exampleNote?: string): string =>
  exampleNote ? `${text}. Example: ${exampleNote}` : text;

/** `{id}` path parameter of a resource addressed by identifier, with an example that exists in the `demo` tenant. */
export const idParam = (what: string, example: string, exampleNote?: string): PathParam => ({
  name: 'id',
  description: describe(`identifier of the ${what}`, exampleNote),
  schema: Type.String({ minLength: 1, maxLength: 200 }),
  example,
});

/** `{skuReference}` (Endpoints / Update SKU stock, Update a SKU inspection definition). */
export const skuReferenceParam = (example: string): PathParam => ({
  name: 'skuReference',
  description: 'reference of the SKU',
  schema: Type.String({ minLength: 1, maxLength: 200 }),
  example,
});
