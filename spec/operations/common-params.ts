import { Type } from '@sinclair/typebox';
import type { PathParam } from './types.js';

/** `{id}` path parameter of a resource addressed by identifier. */
export const idParam = (what: string): PathParam => ({
  name: 'id',
  description: `identifier of the ${what}`,
  schema: Type.String({ minLength: 1, maxLength: 200 }),
});

/** `{skuReference}` (Endpoints / Update SKU stock, Update a SKU inspection definition). */
export const skuReferenceParam: PathParam = {
  name: 'skuReference',
  description: 'reference of the SKU',
  schema: Type.String({ minLength: 1, maxLength: 200 }),
};
