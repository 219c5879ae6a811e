import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { EntityKind } from '../store/entities.js';
import type { JournalRecord, Snapshot, StateHeader } from '../store/records.js';

/**
 * The shapes a state file must have before anything of it is replayed. A snapshot is plain JSON with no checksum: one
 * that parses but was mangled (by hand, by a tool, by another program's bug) would otherwise fail deep in a replay,
 * as a stack trace or a tenant that answers 500 (docs/DESIGN.md, "Shared sandbox": nothing acknowledged is lost, and
 * a file that cannot be trusted is refused). Each entity value is checked for the fields the replay reads (ids, keys,
 * status); the rest of a value is the mock's own serialisation and left open, as response objects are.
 */

const Id = Type.String({ minLength: 1 });
const withId = Type.Object({ id: Id });

/** Per kind, the value a record holds (null: removed). */
const VALUES: { readonly [K in EntityKind]: TSchema } = {
  sku: Type.Object({
    item: Type.Object({ id: Id, reference: Type.String() }),
    stock: Type.Array(Type.Object({})),
    inspections: Type.Array(Type.Object({})),
    unitConversions: Type.Array(Type.Object({})),
  }),
  family: Type.Union([withId, Type.Object({ family: withId, deletedAt: Type.String() })]),
  asset: withId,
  purchaseOrderLine: Type.Object({ id: Id, purchaseOrderId: Id }),
  apiKey: Type.Object({
    apiKey: Type.Object({ id: Id, key: Type.String({ minLength: 1 }) }),
    subject: Type.String(),
    permissions: Type.Array(Type.String()),
    roles: Type.Array(Type.String()),
  }),
  subscription: withId,
  notification: Type.Object({ id: Id, status: Type.String() }),
  attempt: withId,
  clock: Type.Number(),
};

const KINDS = Object.keys(VALUES) as EntityKind[];

const ENTITY_RECORD = Type.Object({
  entity: Type.Union(KINDS.map((kind) => Type.Literal(kind))),
  id: Id,
  after: Type.Unknown(),
});

const HEADER = {
  format: Type.Literal('opsapi-state'),
  version: Type.Literal(1),
  seed: Type.Integer(),
  skus: Type.Integer(),
};

const SNAPSHOT = TypeCompiler.Compile(
  Type.Object({ ...HEADER, tenants: Type.Record(Type.String(), Type.Array(ENTITY_RECORD)) }),
);
const JOURNAL_HEADER = TypeCompiler.Compile(Type.Object(HEADER));
const RECORD = TypeCompiler.Compile(ENTITY_RECORD);
const RESET = TypeCompiler.Compile(Type.Object({ t: Type.Literal('reset'), org: Type.String() }));
const RESET_ALL = TypeCompiler.Compile(Type.Object({ t: Type.Literal('reset-all') }));
const ORG = TypeCompiler.Compile(Type.Object({ org: Type.String() }));
const VALUE_CHECKS = Object.fromEntries(KINDS.map((kind) => [kind, TypeCompiler.Compile(VALUES[kind])])) as unknown as {
  readonly [K in EntityKind]: TypeCheck<TSchema>;
};

/** The first problem of a value against a compiled shape, as `<path> (<message>)`, or null when it fits. */
function firstProblem(check: TypeCheck<TSchema>, value: unknown, at: string): string | null {
  if (check.Check(value)) return null;
  const error = check.Errors(value).First();
  return `${at}${error?.path ?? ''} (${error?.message ?? 'unexpected shape'})`;
}

/** The first problem of an entity record (its kind, id and the fields of its value the replay reads), or null. */
function recordProblem(record: unknown, at: string): string | null {
  const envelope = firstProblem(RECORD, record, at);
  if (envelope) return envelope;
  const { entity, after } = record as { entity: EntityKind; after: unknown };
  // null: removed (of any kind; a removed clock offset too).
  return after === null ? null : firstProblem(VALUE_CHECKS[entity], after, `${at}/after`);
}

/** The first problem of a parsed snapshot, as `<JSON pointer> (<what was expected>)`; null when it is well formed. */
export function snapshotProblem(value: unknown): string | null {
  const envelope = firstProblem(SNAPSHOT, value, '');
  if (envelope) return envelope;
  for (const [org, records] of Object.entries((value as Snapshot).tenants)) {
    for (let i = 0; i < records.length; i++) {
      const problem = recordProblem(records[i], `/tenants/${org}/${i}`);
      if (problem) return problem;
    }
  }
  return null;
}

/** A decoded journal line: the header (first line), a record, or the first problem of a line that is neither. */
export function journalLineOf(
  value: unknown,
): { header: StateHeader } | { record: JournalRecord } | { problem: string } {
  const t = (value as { t?: unknown } | null)?.t;
  if (t === undefined && JOURNAL_HEADER.Check(value)) return { header: value as StateHeader };
  if (t === 'reset' || t === 'reset-all') {
    const problem = firstProblem(t === 'reset' ? RESET : RESET_ALL, value, '');
    return problem ? { problem } : { record: value as JournalRecord };
  }
  if (t !== 'change') return { problem: `/t (not a known record type)` };
  const problem = firstProblem(ORG, value, '') ?? recordProblem(value, '');
  return problem ? { problem } : { record: value as JournalRecord };
}
