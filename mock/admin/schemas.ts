import { Type, type TSchema } from '@sinclair/typebox';
import { ORG_PATTERN } from '../auth/org.js';

/**
 * Bodies and queries of the admin API (docs/DESIGN.md, "Admin API"), validated by Fastify with these TypeBox schemas.
 * Inferred throughout: the reference does not know the admin API. Objects stay open (unknown members are
 * ignored, as they always were); only what the handlers read is constrained.
 */

/** Bounds of `POST /__mock/clock` (seconds): at most 10 years per call. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/** A schema with the `detail` each invalid field of it gets (`''`: the body or query as a whole). */
export interface Described<S extends TSchema> {
  readonly schema: S;
  readonly details: Readonly<Record<string, string>>;
}

const BODY_NOT_OBJECT = 'The body must be a JSON object.';

/** Up to 200 strings of up to 200 characters: permissions and roles of a minted token. */
const stringList = (description: string) => Type.Array(Type.String({ maxLength: 200 }), { maxItems: 200, description });

/** `POST /__mock/tokens`. */
export const TokenBody = {
  schema: Type.Object({
    org: Type.String({ pattern: ORG_PATTERN.source, description: 'the tenant: a new org is a fresh, isolated world' }),
    permissions: Type.Optional(stringList('permissions claimed, e.g. `Warehouse.Counts.Write` (default none)')),
    roles: Type.Optional(stringList('roles claimed; `App.Admin` grants the admin operations (default none)')),
    // Negative values mint tokens that are already expired (tests of the plain 401).
    expiresIn: Type.Optional(
      Type.Integer({
        minimum: -86_400,
        maximum: 31_536_000,
        description: 'seconds of validity, on real time (negative: already expired); default one day',
      }),
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    org: 'org must be 1-64 letters, digits, ".", "_" or "-".',
    permissions: 'permissions must be an array of strings.',
    roles: 'roles must be an array of strings.',
    expiresIn: 'expiresIn must be an integer number of seconds up to one year (negative values mint expired tokens).',
  },
} satisfies Described<TSchema>;

/** `POST /__mock/reset`: `{all: true}` resets every tenant; any other body resets the caller's tenant. */
export const ResetBody = {
  schema: Type.Object({
    all: Type.Optional(
      Type.Unknown({ description: "`true` resets every tenant; any other value, or none, the caller's tenant" }),
    ),
  }),
  details: { '': BODY_NOT_OBJECT },
} satisfies Described<TSchema>;

/** `POST /__mock/clock`. */
export const ClockBody = {
  schema: Type.Object({
    advanceSeconds: Type.Number({
      minimum: 0,
      maximum: MAX_ADVANCE_SECONDS,
      description: "seconds to move the tenant's virtual clock forward",
    }),
  }),
  details: { '': BODY_NOT_OBJECT, advanceSeconds: `advanceSeconds must be a number from 0 to ${MAX_ADVANCE_SECONDS}.` },
} satisfies Described<TSchema>;

/** `POST /__mock/events`: the nesting bound of `data` is the body parser's (./validation.ts: JSON Schema cannot bound depth). */
export const EventBody = {
  schema: Type.Object({
    eventName: Type.String({ description: 'an event of the catalog, e.g. `Warehouse.Shipment.Shipped`' }),
    eventVersion: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'only subscriptions to this version (default: every subscribed version)',
      }),
    ),
    data: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: "the payload's data (default: sample data); nests at most 64 levels",
      }),
    ),
  }),
  details: {
    '': BODY_NOT_OBJECT,
    eventName: 'eventName is required.',
    eventVersion: 'eventVersion must be a positive integer.',
    data: 'data must be a JSON object.',
  },
} satisfies Described<TSchema>;

/**
 * `GET /__mock/stats`: `?gc=1` forces a full collection first (with `--expose-gc`). A repeated `gc` is a list
 * and forces nothing, as it never did: the schema keeps that rather than turning it into a 400.
 */
export const StatsQuery = {
  schema: Type.Object({ gc: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])) }),
  details: {},
} satisfies Described<TSchema>;

/** `DELETE /__mock/api-keys/:id`. */
export const ApiKeyParams = {
  schema: Type.Object({ id: Type.String() }),
  details: {},
} satisfies Described<TSchema>;
