/** One request as the journal shows it (like WireMock's request log): what a client sent and what it got. */
export interface JournalEntry {
  readonly id: number;
  readonly at: string;
  readonly method: string;
  readonly path: string;
  readonly query: string;
  /** Request headers with credentials redacted. */
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly status: number;
  readonly operationId: string | null;
  readonly durationMs: number;
}

/** What the hot path records: references only, no copying; the entry is built when the journal is read. */
export interface RawJournalEntry {
  readonly atMs: number;
  readonly method: string;
  /** The request URL with its query string. */
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
  readonly status: number;
  readonly operationId: string | null;
  readonly durationMs: number;
}

/** Header names whose values the journal never shows. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/** Redacts credentials from headers. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** A bounded ring of the tenant's most recent requests. Recording is O(1); redaction happens on read. */
export class RequestJournal {
  private readonly ring: (RawJournalEntry | undefined)[];
  private next = 0;
  private count = 0;
  private firstId = 1;

  constructor(private readonly capacity = 500) {
    this.ring = new Array<RawJournalEntry | undefined>(capacity);
  }

  add(entry: RawJournalEntry): void {
    this.ring[this.next] = entry;
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
        query: q === -1 ? '' : raw.url.slice(q + 1),
        headers: redactHeaders(raw.headers),
        body: raw.body,
        status: raw.status,
        operationId: raw.operationId,
        durationMs: raw.durationMs,
      });
    }
    return out;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.firstId += this.count;
    this.count = 0;
  }
}
