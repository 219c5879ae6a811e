/** One request as the journal shows it (like WireMock's request log): what a client sent and what it got. */
export interface JournalEntry {
  readonly id: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  /** The query string parsed (a repeated parameter is a list), for assertions on what the client sent. */
  readonly query: Record<string, string | string[]>;
  /** The query string as sent, without the `?` (its exact encoding, e.g. `%26%26` inside `filterBy`). */
  readonly queryString: string;
  /** Request headers with credentials redacted. */
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly status: number;
  /** The problem `code` of the answer; absent for successes and for problems without one (the plain 401). */
  readonly code?: string;
  readonly operationId: string | null;
  readonly durationMs: number;
}

/** What the hot path records: references only, no copying; the entry is built when the journal is read. */
interface RawJournalEntry {
  readonly atMs: number;
  readonly method: string;
  /** The request URL with its query string. */
  readonly url: string;
  /** The query as the framework parsed it (a reference). */
  readonly query: unknown;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
  readonly status: number;
  readonly code: string | undefined;
  readonly operationId: string | null;
  readonly durationMs: number;
}

/** Header names whose values the journal never shows. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/** Redacts credentials from headers. */
function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A copy of a parsed query: string values and lists of strings only. */
function queryCopy(query: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (typeof query !== 'object' || query === null) return out;
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string') out[name] = value;
    else if (Array.isArray(value)) out[name] = value.map(String);
  }
  return out;
}

/** A bounded ring of the tenant's most recent requests. Recording is O(1); redaction happens on read. */
export class RequestJournal {
  /** Grows to `capacity` as requests come (a tenant that made few requests holds a short array), then wraps. */
  private ring: (RawJournalEntry | undefined)[] = [];
  private next = 0;
  private count = 0;
  private firstId = 1;

  constructor(private readonly capacity = 500) {}

  add(entry: RawJournalEntry): void {
    if (this.ring.length < this.capacity) this.ring.push(entry);
    else this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
    else this.firstId++;
  }

  /** Oldest first, credentials redacted. */
  list(): JournalEntry[] {
    const out: JournalEntry[] = [];
    const start = (this.next - this.count + this.capacity) % this.capacity;
    for (let i = 0; i < this.count; i++) {
      const raw = this.ring[(start + i) % this.capacity];
      if (!raw) continue;
      const q = raw.url.indexOf('?');
      out.push({
        id: this.firstId + i,
        at: new Date(raw.atMs).toISOString(),
        method: raw.method,
        path: q === -1 ? raw.url : raw.url.slice(0, q),
        query: queryCopy(raw.query),
        queryString: q === -1 ? '' : raw.url.slice(q + 1),
        headers: redactHeaders(raw.headers),
        body: raw.body,
        status: raw.status,
        ...(raw.code === undefined ? {} : { code: raw.code }),
        operationId: raw.operationId,
        durationMs: raw.durationMs,
      });
    }
    return out;
  }

  clear(): void {
    this.ring = [];
    this.next = 0;
    this.firstId += this.count;
    this.count = 0;
  }
}
