import { SCHEMAS } from '../components.js';
import type { OperationDef } from '../operations/index.js';
import type { JsonType, LearnedListField, RecordShape } from './shapes.js';

/**
 * The contract's own answer to the record questions (what `inferred` holds at the record and list points): the
 * members its schemas name, and the fields its list tables filter and sort by.
 */

type Schema = Record<string, unknown>;

/** The component a `$ref` names, when it is one of the contract's. */
function resolved(schema: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return (SCHEMAS[name] as Schema | undefined) ?? schema;
}

/** The JSON types a schema allows (unions and constants looked through; integers are numbers). */
function jsonTypesOfSchema(input: Schema): JsonType[] {
  const schema = resolved(input);
  const out = new Set<JsonType>();
  const add = (t: unknown) => {
    if (t === 'integer') out.add('number');
    else if (typeof t === 'string' && ['string', 'number', 'boolean', 'object', 'array', 'null'].includes(t))
      out.add(t as JsonType);
  };
  for (const branch of [...((schema.anyOf as Schema[]) ?? []), ...((schema.oneOf as Schema[]) ?? [])])
    for (const t of jsonTypesOfSchema(branch)) out.add(t);
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else add(schema.type);
  if (out.size === 0 && Array.isArray(schema.enum)) out.add('string');
  return [...out].sort();
}

/** The shape a record schema promises: its properties, those it requires always present. */
export function shapeOfSchema(input: Schema): RecordShape {
  const schema = resolved(input);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  return {
    fields: Object.entries(properties)
      .map(([name, s]) => ({ name, types: jsonTypesOfSchema(s), always: required.has(name) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The component schema of the records an operation answers: a list's item, or the object it returns. */
export function recordSchemaOf(op: OperationDef): Schema | undefined {
  if (op.list) return SCHEMAS[op.list.item] as Schema | undefined;
  if (op.success.schema === null) return undefined;
  const schema = SCHEMAS[op.success.schema] as Schema | undefined;
  if (schema?.type === 'array') return resolved((schema.items ?? {}) as Schema);
  return schema;
}

/** Whether an operation answers a collection: a list, or a bare array of records. */
export function collectionForm(op: OperationDef): 'envelope' | 'array' | undefined {
  if (op.list) return 'envelope';
  const schema = op.success.schema === null ? undefined : (SCHEMAS[op.success.schema] as Schema | undefined);
  return schema?.type === 'array' ? 'array' : undefined;
}

/** The contract's field table of a list, as a learned table is written (the fields that filter or sort). */
export function contractListFields(op: OperationDef): LearnedListField[] {
  if (!op.list?.filterAndSort) return [];
  return op.list.fields
    .filter((f) => f.filterable || f.sortable)
    .map((f) => ({
      name: f.name,
      query: f.name,
      type: f.type,
      operators: f.filterable ? [...f.operators] : [],
      sortable: f.sortable,
    }));
}
