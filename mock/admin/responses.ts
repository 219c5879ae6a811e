import { Type } from '@sinclair/typebox';
import { DataManifest } from '../../common/data-manifest.js';

/**
 * Bodies the admin API answers with, as its document (`/__mock/openapi.json`) shows them. Inferred throughout: the
 * reference does not know the admin API. Objects stay open (a later version may add members), like the contract's
 * response objects; a unit test sends each route and validates its answer against these schemas.
 */

export const Health = Type.Object({ status: Type.Literal('ok') }, { description: 'The mock is up.' });

/** The figures of a byte budget (`CacheFigures` of mock/lists/cache-budget.ts), each described for what it counts. */
function budgetFigures(
  says: Record<'limitBytes' | 'shareBytes' | 'usedBytes' | 'entries' | 'evictions' | 'refused', string>,
  description: string,
) {
  const count = (text: string) => Type.Integer({ minimum: 0, description: text });
  return Type.Object(
    {
      limitBytes: count(says.limitBytes),
      shareBytes: count(says.shareBytes),
      usedBytes: count(says.usedBytes),
      entries: count(says.entries),
      evictions: count(says.evictions),
      refused: count(says.refused),
    },
    { description },
  );
}

export const Stats = Type.Object(
  {
    uptimeSeconds: Type.Integer({ minimum: 0 }),
    tenants: Type.Integer({ minimum: 0, description: 'tenants in memory' }),
    tenantLimit: Type.Object(
      {
        inMemory: Type.Integer({ minimum: 0, description: 'tenants in memory now' }),
        max: Type.Integer({ minimum: 1, description: 'most tenants kept in memory (`--max-tenants`)' }),
        evicted: Type.Integer({ minimum: 0, description: 'tenants evicted (least recently used) since start' }),
        evictedWithWrites: Type.Integer({
          minimum: 0,
          description:
            'evicted tenants that held writes: without `--state` those writes were dropped, and the next answer to the tenant carries a `Warning` header saying so; with `--state` they were kept',
        }),
        reloaded: Type.Integer({
          minimum: 0,
          description:
            'tenants reloaded from `--state` on their next request (after an eviction or a restart), with their writes, API keys, id sequences and clock',
        }),
        worldsBuilt: Type.Integer({
          minimum: 0,
          description:
            'tenants in memory whose world is built now; a tenant that never wrote may drop its world (256 are kept built) and builds the same one again from the seed on its next read',
        }),
        persisted: Type.Boolean({
          description:
            'whether `--state` keeps every tenant that wrote: an evicted one is reloaded on its next request, nothing lost and no `Warning`',
        }),
      },
      { description: 'How many tenants the mock keeps, and what eviction did' },
    ),
    listCaches: budgetFigures(
      {
        limitBytes: 'the budget over all tenants (`--cache-mb`)',
        shareBytes: 'most one tenant may hold (a quarter of the budget)',
        usedBytes: 'estimated bytes cached now (never above the budget)',
        entries: 'values cached now',
        evictions: 'values dropped to stay within the budget since start',
        refused:
          'values computed and not kept since start: a filter (or its matches) is kept from its second request within a recent window on, so filters never repeated leave nothing behind',
      },
      "The list engine's caches (sorted orders, filter matches, compiled filters): a byte budget, least recently used values dropped beyond it, values asked for once not kept",
    ),
    listPages: Type.Optional(
      budgetFigures(
        {
          limitBytes: 'the budget of kept pages (a sixteenth of `--cache-mb`)',
          shareBytes: 'most the pages of one list may hold',
          usedBytes: 'estimated bytes kept now',
          entries: 'pages kept now',
          evictions: 'pages dropped to stay within the budget since start',
          refused: 'pages not kept since start: a page is kept from its second request within a recent window on',
        },
        'Serialized list pages kept for identical requests until their list changes (absent with `--fault` or `--decisions`)',
      ),
    ),
    notifications: Type.Integer({ minimum: 0, description: 'stored notifications over all tenants (in this process)' }),
    pendingDeliveries: Type.Integer({
      minimum: 0,
      description: 'delivery attempts scheduled or under way (with `--redis`: over every replica)',
    }),
    replication: Type.Optional(
      Type.Object(
        {
          replica: Type.String({ description: "this process's id among the replicas" }),
          redis: Type.String({ description: 'where the shared state lives (without credentials)' }),
          due: Type.Integer({ minimum: 0, description: 'attempts waiting in the shared schedule' }),
          claimed: Type.Integer({ minimum: 0, description: 'attempts claimed by some replica and under way' }),
        },
        { description: 'With `--redis` only: this replica and the shared webhook schedule' },
      ),
    ),
    memory: Type.Object(
      { rss: Type.Integer(), heapUsed: Type.Integer(), heapTotal: Type.Integer(), external: Type.Integer() },
      { description: 'bytes' },
    ),
    gcForced: Type.Boolean({
      description: 'whether `?gc=1` ran a full collection first (only under `node --expose-gc`)',
    }),
  },
  { description: 'Figures of the mock process.' },
);

export const MintedToken = Type.Object({
  token: Type.String({ description: 'an HS256 JWT for `Authorization: Bearer`' }),
});

export const ResetDone = Type.Object({
  reset: Type.String({ description: '`all`, or the org of the tenant that was reset' }),
});

export const ClockReading = Type.Object({
  now: Type.String({ format: 'date-time', description: "the tenant's virtual time" }),
  offsetSeconds: Type.Number({ description: 'how far the virtual clock runs ahead of real time' }),
});

/** Sample records of the caller's tenant, in the conformance runner's `--data` format (one schema for both). */
export const Fixtures = DataManifest;

export const JournalEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String({ format: 'date-time', description: 'tenant time of the request' }),
    method: Type.String(),
    path: Type.String(),
    query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
      description: 'the query string parsed (a repeated parameter is a list)',
    }),
    queryString: Type.String({ description: 'the query string as sent, without `?`' }),
    headers: Type.Record(Type.String(), Type.String(), { description: 'request headers, credentials redacted' }),
    body: Type.Unknown({ description: 'the request body (a long one as a text excerpt)' }),
    status: Type.Integer(),
    code: Type.Optional(Type.String({ description: 'the problem `code` of the answer, when it had one' })),
    operationId: Type.Union([Type.String(), Type.Null()], {
      description: 'the operation of the contract, null for other routes',
    }),
    durationMs: Type.Number({ minimum: 0 }),
  },
  { description: 'One request as the tenant sent it and the status it got; credentials redacted.' },
);

export const Journal = Type.Object({ requests: Type.Array(JournalEntry, { description: 'oldest first' }) });

export const WebhookSecret = Type.Object({
  secret: Type.String({ description: 'the HMAC-SHA256 key of the `X-HMAC-Signature` header' }),
});

export const Emission = Type.Object({
  eventId: Type.String(),
  notifications: Type.Array(Type.String(), {
    description: 'identifiers of the notifications created, one per matching subscription',
  }),
});

const HitTotal = Type.Object({ hit: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) });

export const Coverage = Type.Object(
  {
    operations: Type.Unknown({ description: 'each operation of the contract and whether it was exercised' }),
    pairs: Type.Unknown({ description: 'each documented status/code pair and whether it was exercised' }),
    summary: Type.Object({ operations: HitTotal, pairs: HitTotal }),
  },
  { description: "Which operations and documented status/code pairs the caller's tenant's traffic exercised." },
);

export const OpenApiDocument = Type.Object(
  { openapi: Type.String({ pattern: '^3\\.1\\.' }) },
  { description: 'An OpenAPI 3.1 document.' },
);
