import { Type, type TSchema } from '@sinclair/typebox';
import { ok } from '../../handlers/context.js';
import { send } from '../../http/send.js';
import { loopFigures } from '../../loop-figures.js';
import { mockStats } from '../../stats.js';
import type { AdminContext, AdminInstance } from '../context.js';
import { INVALID_REQUEST, jsonAnswer, NO_CREDENTIALS, problemAnswers, TAG } from '../doc-parts.js';
import type { Described } from '../validation.js';

/**
 * `GET /__mock/stats`: `?gc=1` forces a full collection first (with `--expose-gc`). A repeated `gc` is a list
 * and forces nothing, as it never did: the schema keeps that rather than turning it into a 400.
 */
const StatsQuery = {
  schema: Type.Object({
    gc: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.String())], {
        description: '`1`: a full collection first, when the mock runs under `node --expose-gc`',
      }),
    ),
  }),
  details: {},
} satisfies Described<TSchema>;

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

/** The pauses of one kind of collection (`PauseFigures` of mock/loop-figures.ts). */
function pauseFigures(description: string) {
  return Type.Object(
    {
      count: Type.Integer({ minimum: 0, description: 'collections of this kind' }),
      pauseMs: Type.Number({ minimum: 0, description: 'their pauses added up, milliseconds' }),
      longestMs: Type.Number({ minimum: 0, description: 'the longest of them, milliseconds' }),
    },
    { description },
  );
}

const Stats = Type.Object(
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
    verifiedTokens: Type.Object(
      {
        entries: Type.Integer({ minimum: 0, description: 'valid access tokens cached now' }),
        maxEntries: Type.Integer({ minimum: 1, description: 'most tokens cached' }),
        chars: Type.Integer({
          minimum: 0,
          description: 'characters of the cached tokens, each counted with 200 more for its entry',
        }),
        maxChars: Type.Integer({ minimum: 1, description: 'most characters cached' }),
      },
      {
        description:
          'The cache of verified access tokens, so a token in use is not verified again on every request: least recently used dropped beyond either bound (a dropped token is verified again when it comes back)',
      },
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
    loop: Type.Object(
      {
        busyMs: Type.Integer({
          minimum: 0,
          description:
            "milliseconds the process's event loop ran callbacks since it started (every tenant's answers wait for them)",
        }),
        idleMs: Type.Integer({ minimum: 0, description: 'milliseconds it waited for work' }),
        gc: Type.Object(
          {
            minor: pauseFigures('scavenges: collections of the young generation'),
            major: pauseFigures('mark-compact collections of the whole heap'),
            other: pauseFigures('incremental marking steps and weak callbacks'),
          },
          {
            description:
              "the collector's pauses since the mock began observing them, during which no tenant is answered",
          },
        ),
      },
      {
        description:
          'Counters of the event loop since the start: take the difference of two reads for an interval (the share of it the loop was busy; the mean pause of its scavenges)',
      },
    ),
    gcForced: Type.Boolean({
      description: 'whether `?gc=1` ran a full collection first (only under `node --expose-gc`)',
    }),
  },
  { description: 'Figures of the mock process.' },
);

/**
 * `GET /__mock/stats`: process figures for soak tests and operators: tenants in memory, stored notifications, memory.
 * With `?gc=1` and a process started with --expose-gc, a full collection runs first, so `heapUsed` is the live heap.
 */
export function registerStats(admin: AdminInstance, { services }: AdminContext): void {
  const { store, options } = services;
  admin.get(
    '/__mock/stats',
    {
      schema: {
        operationId: 'mockStats',
        tags: [TAG.mock],
        summary: 'Figures of the mock process',
        description:
          'Tenants in memory, stored notifications, pending deliveries, memory, and how the event loop fared (busy and idle time, collection pauses). `?gc=1` runs a full collection first when the mock runs under `node --expose-gc`, so `heapUsed` is the live heap.',
        security: NO_CREDENTIALS,
        querystring: StatsQuery.schema,
        response: { 200: jsonAnswer('The figures.', Stats), ...problemAnswers(INVALID_REQUEST) },
      },
      config: { fieldDetails: StatsQuery.details },
    },
    async (req, reply) => {
      const wantGc = req.query.gc === '1';
      const gc = (globalThis as { gc?: () => void }).gc;
      if (wantGc && gc) gc();
      const figures = mockStats(services);
      const replication = services.replication ? await services.replication.stats().catch(() => null) : null;
      const memory = process.memoryUsage();
      return send(
        reply,
        ok(200, {
          uptimeSeconds: Math.round(process.uptime()),
          tenants: figures.tenants,
          tenantLimit: { ...store.figures(), persisted: options.stateFile !== null },
          listCaches: figures.listCaches,
          ...(figures.listPages ? { listPages: figures.listPages } : {}),
          verifiedTokens: figures.verifiedTokens,
          notifications: figures.notifications,
          ...(replication
            ? { pendingDeliveries: replication.due + replication.claimed, replication }
            : { pendingDeliveries: figures.pendingDeliveries }),
          memory: {
            rss: memory.rss,
            heapUsed: memory.heapUsed,
            heapTotal: memory.heapTotal,
            external: memory.external,
          },
          loop: loopFigures(),
          gcForced: Boolean(wantGc && gc),
        }),
      );
    },
  );
}
