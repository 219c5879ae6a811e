/** One request as the journal keeps it (like WireMock's request log): what a client sent and what it got. */
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

/** Header names whose values the journal never keeps. */
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

/** A bounded ring of the tenant's most recent requests. */
export class RequestJournal {
  private entries: JournalEntry[] = [];
  private nextId = 1;

  constructor(private readonly capacity = 500) {}

  add(entry: Omit<JournalEntry, 'id'>): void {
    this.entries.push({ id: this.nextId++, ...entry });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** Newest last. */
  list(): readonly JournalEntry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}
