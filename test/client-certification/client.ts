import type { ClientFault } from './faults.js';

/**
 * A small client of the Operations Platform API written the way an integration would be, to be certified by the mock's
 * client checks (docs/DESIGN.md, "Client certification"). It obeys the reference's rules for clients: credentials as
 * `Authorization: Bearer <token>` and the API key in `X-Api-Key` on list requests (Authentication, points 1-2),
 * `Content-Type: application/json` on bodies (Data formats), list walks while `pageNumber` is less than
 * `totalPages` with `&&` percent-encoded (List and search endpoints), the indicated delay after a 429 before the same
 * request again (Errors, 429), event names and versions read from the versions endpoint (Events, point 2). Each known
 * fault (./faults.ts) breaks one of those rules.
 */

interface ClientOptions {
  baseUrl: string;
  token: string;
  /** Sent in `X-Api-Key` on list requests (Authentication, point 2). */
  apiKey?: string;
  faults?: ReadonlySet<ClientFault>;
  /** Attempts of one request refused with 429, at most (a bound: a client never loops for ever). */
  maxAttempts?: number;
}

/** An answer that is not the success the client asked for. */
class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly target: string,
    readonly body: string,
  ) {
    super(`${target} answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** What a request is: it is sent again unchanged (same target, same bytes) after a 429. */
interface Call {
  method: string;
  path: string;
  /** Query parameters in order; values are percent-encoded by the client. */
  query?: readonly (readonly [string, string | number | undefined])[];
  body?: unknown;
  list?: boolean;
}

/** The page envelope (Resources, "Page of results"). */
interface Page<T> {
  results: T[];
  pageNumber: number;
  pageSize: number;
  totalPages: number;
  totalCount: number;
}

interface ListQuery {
  pageSize: number;
  filterBy?: string;
  sortBy?: string;
}

interface EventVersion {
  eventName: string;
  eventVersion: number;
}

interface Subscription extends EventVersion {
  id: string;
  endpoint: string;
}

/** Where the client reads what an event names (Events, point 5): by the field of its data that carries the identifier. */
const READS: readonly { field: string; read: (c: ReferenceClient, value: string) => Promise<unknown> }[] = [
  {
    field: 'skuReference',
    read: (c, v) => c.list('/v1/items/skus', { pageSize: 1, filterBy: `reference[Equals]${v}` }),
  },
  { field: 'assetId', read: (c, v) => c.list('/v1/maintenance/assets', { pageSize: 1, filterBy: `id[Equals]${v}` }) },
  {
    field: 'familyId',
    read: (c, v) => c.send({ method: 'POST', path: '/v1/items/families/search', body: { filterBy: `id[Equals]${v}` } }),
  },
];

/** The event a hand-made subscription names (the `hand-made-name` fault): a name written in code, not read. */
const HAND_MADE_EVENT: EventVersion = { eventName: 'Warehouse.Stock.Updated', eventVersion: 2 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The delay a 429 indicates, ms: `Retry-After` in seconds or as an HTTP date (RFC 9110); 1 s when the answer names
 * none (inferred: a client that cannot read the delay still backs off).
 */
function retryDelayMs(res: Response): number {
  const value = res.headers.get('retry-after');
  if (value !== null) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(value);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return 1000;
}

export class ReferenceClient {
  private readonly faults: ReadonlySet<ClientFault>;
  private readonly maxAttempts: number;

  constructor(private readonly options: ClientOptions) {
    this.faults = options.faults ?? new Set();
    this.maxAttempts = options.maxAttempts ?? 5;
  }

  has(fault: ClientFault): boolean {
    return this.faults.has(fault);
  }

  /** The query string: every value percent-encoded (`&&` becomes `%26%26`), unless the `raw-and` fault. */
  private queryString(query: Call['query']): string {
    const parts = (query ?? [])
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => {
        const encoded = encodeURIComponent(String(v));
        return `${k}=${this.has('raw-and') ? encoded.replace(/%26%26/g, '&&') : encoded}`;
      });
    return parts.length ? `?${parts.join('&')}` : '';
  }

  private headers(call: Call): Record<string, string> {
    const bare = call.list && this.has('bare-token');
    const headers: Record<string, string> = {
      authorization: bare ? this.options.token : `Bearer ${this.options.token}`,
      accept: 'application/json',
    };
    if (call.list && this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (call.body !== undefined && !this.has('no-content-type')) headers['content-type'] = 'application/json';
    return headers;
  }

  /**
   * Sends a request; after a 429 waits the indicated delay and sends the very same request again (Errors, 429), at
   * most `maxAttempts` times. Answers the parsed body of a 2xx (undefined when empty); throws ApiError otherwise.
   */
  async send<T = unknown>(call: Call): Promise<T> {
    const target = `${call.path}${this.queryString(call.query)}`;
    // The bytes are fixed once, so a retry is the same request; as bytes, fetch adds no Content-Type of its own.
    const body = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.options.baseUrl}${target}`, {
        method: call.method,
        headers: this.headers(call),
        ...(body ? { body } : {}),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < this.maxAttempts && !this.has('never-retry')) {
        if (!this.has('retry-at-once')) await sleep(retryDelayMs(res));
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw new ApiError(res.status, `${call.method} ${target}`, text);
      return (text ? JSON.parse(text) : undefined) as T;
    }
  }

  /** One page of a list (parameters in the query string). */
  page<T>(path: string, q: ListQuery, pageNumber: number): Promise<Page<T>> {
    return this.send<Page<T>>({
      method: 'GET',
      path,
      list: true,
      query: [
        ['pageNumber', pageNumber],
        ['pageSize', q.pageSize],
        ['filterBy', q.filterBy],
        ['sortBy', q.sortBy],
      ],
    });
  }

  /** The first page of a list only (a lookup). */
  async list<T>(path: string, q: ListQuery): Promise<T[]> {
    return (await this.page<T>(path, q, this.has('page-zero') ? 0 : 1)).results;
  }

  /**
   * Every item of a list: page 1, then the next page while pageNumber is less than totalPages, with the same size,
   * filter and sort (List and search endpoints). Bounded by `maxPages`.
   */
  async walk<T>(path: string, q: ListQuery, maxPages = 50): Promise<T[]> {
    const items: T[] = [];
    let n = this.has('page-zero') ? 0 : 1;
    for (let pages = 0; pages < maxPages; pages++) {
      const page = await this.page<T>(path, q, n);
      items.push(...page.results);
      const more = this.has('past-last') ? page.pageNumber <= page.totalPages : page.pageNumber < page.totalPages;
      if (!more || (this.has('stop-early') && pages + 1 >= 2)) break;
      n = page.pageNumber + 1;
    }
    return items;
  }

  /** The event names and versions the environment offers (Events, point 2). */
  eventVersions(): Promise<EventVersion[]> {
    return this.send<EventVersion[]>({ method: 'GET', path: '/v1/notifications/events/versions' });
  }

  /**
   * Subscribes an endpoint to an event at the highest version the environment offers, unless a subscription of it
   * exists already (Events, points 2-3).
   */
  async subscribe(endpoint: string, eventName: string): Promise<Subscription> {
    let chosen: EventVersion;
    if (this.has('hand-made-name')) chosen = HAND_MADE_EVENT;
    else {
      const offered = (await this.eventVersions()).filter((e) => e.eventName === eventName);
      if (offered.length === 0) throw new Error(`the environment does not offer ${eventName}`);
      const highest = Math.max(...offered.map((e) => e.eventVersion));
      chosen = { eventName, eventVersion: this.has('unoffered-version') ? highest + 1 : highest };
    }
    const existing = await this.walk<Subscription>('/v1/notifications/webhook/subscriptions', {
      pageSize: 100,
      filterBy: `endpoint[Equals]${endpoint}`,
    });
    const same = existing.find((s) => s.eventName === chosen.eventName && s.eventVersion === chosen.eventVersion);
    if (same) return same;
    return this.send<Subscription>({
      method: 'POST',
      path: '/v1/notifications/webhook/subscriptions',
      body: { endpoint, ...chosen },
    });
  }

  /** Sets the stock of a SKU at a location (Endpoints, "Update SKU stock"). */
  async updateStock(skuReference: string, body: Record<string, unknown>): Promise<void> {
    await this.send({ method: 'PUT', path: `/v1/items/skus/${encodeURIComponent(skuReference)}/stock`, body });
  }

  /**
   * Reads the current state of what an event's data names (Events, point 5); false when the client reads no entity
   * of the event (no field it knows).
   */
  async readNamed(data: Record<string, unknown>): Promise<boolean> {
    const reader = READS.find((r) => typeof data[r.field] === 'string');
    if (!reader) return false;
    await reader.read(this, data[reader.field] as string);
    return true;
  }
}
