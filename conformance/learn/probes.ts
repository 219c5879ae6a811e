import { randomBytes } from 'node:crypto';
import { INFERRED_DEFAULT_ORDER } from '../../spec/decisions/index.js';
import { burstPastTheLimit } from '../rate-limit-burst.js';
import { retryDelayOf } from '../retry-delay.js';
import { OPERATIONS, operation, type OperationDef } from '../../spec/operations/index.js';
import { retryAfterMs, type Exchange, type RequestSpec } from '../client.js';
import type { RunContext } from '../context.js';
import { listSpec, pageOf, type ListParams } from '../helpers.js';
import type { Observations } from './observations.js';

/** What one probe works with: the run (client, credentials, options) and where it writes what it saw. */
export interface ProbeContext {
  run: RunContext;
  seen: Observations;
  /** Sends a request; every answer is scanned for code statuses and success statuses. */
  send(spec: RequestSpec): Promise<Exchange>;
}

/** A probe: the decision points it settles and whether it reads, writes, or bursts past the rate limit. */
export interface Probe {
  name: string;
  kind: 'read' | 'write' | 'rate-limit';
  /** Points it can observe (reported as not observed when it is not run). */
  points: () => string[];
  run(p: ProbeContext): Promise<void>;
}

/** Lists addressed without path values, whose items the probes can read. */
function plainLists(): OperationDef[] {
  return OPERATIONS.filter((op) => op.list && op.pathParams.length === 0);
}

function list(p: ProbeContext, op: OperationDef, params: ListParams): Promise<Exchange> {
  return p.send(listSpec(op, op.path, params));
}

const ids = (ex: Exchange) => (pageOf(ex)?.results ?? []).map((i) => JSON.stringify(i.id ?? i));

/** Requests that provoke coded errors without changing anything: their statuses are scanned. */
const readErrors: Probe = {
  name: 'read errors',
  kind: 'read',
  points: () => ['code-status:COMMON.QUERY.SORTING_PARSING_FAILED', 'code-status:COMMON.VALIDATION.ERROR'],
  async run(p) {
    const op = plainLists().find((o) => o.list?.filterAndSort && o.method === 'get') as OperationDef;
    await Promise.all([
      list(p, op, { sortBy: 'opsapiLearnNoSuchField' }),
      list(p, op, { pageSize: 0 }),
      list(p, op, { pageNumber: 0 }),
      p.send({ method: 'GET', path: '/v1/errors/OPSAPI.LEARN.NO_SUCH_CODE' }),
    ]);
    for (const l of plainLists()) await list(p, l, { pageSize: 1 });
  },
};

/** A valid bearer token with a different, unknown X-Api-Key: refused (401) or the key ignored (2xx). */
const otherKey: Probe = {
  name: 'credentials',
  kind: 'read',
  points: () => ['other-api-key-with-bearer'],
  async run(p) {
    const token = p.run.credentials.main;
    if (!token) return p.seen.cannot('other-api-key-with-bearer', 'needs a bearer token (--token)');
    const op = plainLists()[0] as OperationDef;
    const key = `opsapi-learn-${randomBytes(12).toString('hex')}`;
    p.run.redactor.add(key);
    const ex = await p.send({
      ...listSpec(op, op.path, { pageSize: 1 }),
      auth: { headers: { authorization: `Bearer ${token}`, 'x-api-key': key } },
    });
    if (ex.status === 401) p.seen.record('other-api-key-with-bearer', 'refused', ex);
    else if (ex.status >= 200 && ex.status < 300) p.seen.record('other-api-key-with-bearer', 'ignored', ex);
    else p.seen.cannot('other-api-key-with-bearer', `the request answered ${ex.status}, neither 401 nor a success`);
  },
};

/** A run of 3 to 6 letters and digits with at least one letter, from a text. */
function caseSample(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return value.match(/[A-Za-z0-9]{3,6}/g)?.find((s) => /[A-Za-z]/.test(s));
}

const swapCase = (s: string) =>
  [...s].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');

/** The filter value of an item's text as written and in the other case, or undefined when it cannot serve. */
type CaseSample = (value: unknown) => { exact: string; swapped: string } | undefined;

/**
 * A probe of the case rule of `operator`: the first list item whose text `sample` accepts is looked for with its
 * letters in the other case: found, `insensitive`; not found but found as written, `sensitive`.
 */
function caseProbe(point: string, operator: 'Contains' | 'Equals', sample: CaseSample, none: string): Probe {
  return {
    name: point.replace('-', ' '),
    kind: 'read',
    points: () => [point],
    async run(p) {
      for (const op of plainLists().filter((o) => o.list?.filterAndSort)) {
        const page = pageOf(await list(p, op, { pageSize: 100 }));
        for (const field of op.list?.fields.filter((f) => f.filterable && f.type === 'string') ?? []) {
          const item = page?.results.find((i) => sample(i[field.name]) !== undefined);
          if (!item) continue;
          const { exact, swapped } = sample(item[field.name]) as { exact: string; swapped: string };
          const id = JSON.stringify(item.id);
          const other = await list(p, op, { filterBy: `${field.name}[${operator}]${swapped}`, pageSize: 1000 });
          if (other.status !== 200) continue;
          if (ids(other).includes(id)) return p.seen.record(point, 'insensitive', other);
          const same = await list(p, op, { filterBy: `${field.name}[${operator}]${exact}`, pageSize: 1000 });
          if (same.status === 200 && ids(same).includes(id)) return p.seen.record(point, 'sensitive', other);
        }
      }
      p.seen.cannot(point, none);
    },
  };
}

/** Contains with a run of letters of a value in the other case. */
const textCase = caseProbe(
  'text-case',
  'Contains',
  (value) => {
    const s = caseSample(value);
    return s === undefined ? undefined : { exact: s, swapped: swapCase(s) };
  },
  'no list item has a text value with letters to search for in the other case',
);

/** Equals with a whole text value in the other case, quoted so values with spaces or punctuation are one value. */
const equalsCase = caseProbe(
  'equals-case',
  'Equals',
  (value) =>
    typeof value === 'string' && value.length <= 200 && !/["\\]/.test(value) && swapCase(value) !== value
      ? { exact: `"${value}"`, swapped: `"${swapCase(value)}"` }
      : undefined,
  'no list item has a text value with letters to look for in the other case',
);

/** The order of each list without sortBy, found among its sortable fields in both directions. */
const defaultOrder: Probe = {
  name: 'default order',
  kind: 'read',
  points: () =>
    plainLists()
      .filter((o) => o.list?.filterAndSort)
      .map((o) => `default-order:${o.operationId}`),
  async run(p) {
    await Promise.all(
      plainLists()
        .filter((o) => o.list?.filterAndSort)
        .map(async (op) => {
          const id = `default-order:${op.operationId}`;
          const base = await list(p, op, { pageSize: 50 });
          const order = ids(base);
          if (base.status !== 200 || order.length < 2)
            return p.seen.cannot(id, `${op.operationId} has fewer than two items to order`);
          const names = (op.list?.fields ?? []).filter((f) => f.sortable).map((f) => f.name);
          const candidates = [
            INFERRED_DEFAULT_ORDER,
            `-${INFERRED_DEFAULT_ORDER}`,
            ...names.flatMap((n) => [n, `-${n}`]),
          ];
          for (const sortBy of [...new Set(candidates)].filter((c) => names.includes(c.replace(/^-/, '')))) {
            const sorted = await list(p, op, { pageSize: 50, sortBy });
            if (sorted.status === 200 && JSON.stringify(ids(sorted)) === JSON.stringify(order))
              return p.seen.record(id, sortBy, base);
          }
          p.seen.cannot(id, `no sortBy of one field gives the order ${op.operationId} has without sortBy`);
        }),
    );
  },
};

/** Exceeds the rate limit (bounded like the runner's probe) and reads how the 429 tells its delay. */
const retryDelay: Probe = {
  name: 'rate limit',
  kind: 'rate-limit',
  points: () => ['retry-delay'],
  async run(p) {
    const { sent, limited } = await burstPastTheLimit(p.run, 'learn');
    if (!limited)
      return p.seen.cannot('retry-delay', `no 429 after ${sent} requests (--rate-limit-max-requests/-seconds)`);
    const delay = retryDelayOf(limited.headers);
    if (delay) p.seen.record('retry-delay', delay, limited);
    else p.seen.cannot('retry-delay', 'the 429 carries no header with a retry delay');
    // Let the tenant's bucket refill before other probes run (the delay told, or a second, at most 10 s).
    const wait = Math.min(10_000, retryAfterMs(limited.headers['retry-after']) ?? 1000);
    await new Promise((resolve) => setTimeout(resolve, wait));
  },
};

/** Writes that fail by design (unknown event, bad URL) and a subscription created and deleted again. */
const writes: Probe = {
  name: 'writes',
  kind: 'write',
  points: () => [
    'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
    'code-status:NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL',
    'success-status:createWebhookSubscription',
    'success-status:deleteWebhookSubscription',
  ],
  async run(p) {
    const create = operation('createWebhookSubscription');
    const example = create.requestBody?.example as Record<string, unknown>;
    const post = (json: unknown) => p.send({ method: 'POST', path: create.path, json });
    await post({ ...example, eventName: 'Opsapi.Learn.NoSuchEvent' });
    await post({ ...example, endpoint: 'not a url' });
    const created = await post({ ...example, endpoint: 'http://127.0.0.1:9/opsapi-learn' });
    const id = (created.json as { id?: unknown } | undefined)?.id;
    if (created.status < 300 && typeof id === 'string') {
      const del = operation('deleteWebhookSubscription');
      await p.send({ method: 'DELETE', path: del.path.replace('{id}', encodeURIComponent(id)) });
    }
  },
};

/** Every probe, in the order they run (the rate-limit burst last, so it slows nothing else). */
export const PROBES: readonly Probe[] = [readErrors, otherKey, textCase, equalsCase, defaultOrder, writes, retryDelay];
