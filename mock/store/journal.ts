import { CREDENTIAL_HEADERS } from '../../common/report/redaction.js';
import { ownExcerpt } from './own-excerpt.js';

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
  /** What of the request was cut to the journal's bounds (absent: nothing). */
  readonly truncated?: readonly JournalPart[];
  /** True when the answer was a 429 the client checks injected (profile certify), not the API's own. */
  readonly injected?: true;
}

/** A part of a request the journal may cut. */
type JournalPart = 'url' | 'headers' | 'body';

/** What the recorder hands over: the request as the framework holds it (nothing of it is kept by reference but bounded parts). */
interface RecordedRequest {
  readonly atMs: number;
  readonly method: string;
  /** The request URL with its query string. */
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The body as received (text for JSON), and the body parsed when it passed validation. */
  readonly rawBody: unknown;
  readonly parsedBody: unknown;
  readonly status: number;
  readonly code: string | undefined;
  readonly operationId: string | null;
  readonly durationMs: number;
  readonly injected?: boolean;
}

/** How much a tenant's journal keeps (`--journal-entries`, `--journal-kb`). */
export interface JournalLimits {
  readonly entries: number;
  readonly bytes: number;
}

/**
 * Bounds of one entry (inferred: long enough for any request a client test asserts on, short enough that an attacker's
 * 1 MB body, 15 KB headers or 250-term filter costs each entry at most ~17 KB): the URL, each header value, all
 * header values together, and the body (a body over it is kept as a text excerpt, as the journal always did).
 */
const URL_CHARS = 2048;
const HEADER_VALUE_CHARS = 512;
const HEADERS_CHARS = 2048;
const BODY_CHARS = 4096;

/**
 * Estimated bytes of a kept string: 16 + 2 per character, the measure of the list caches' budget
 * (mock/lists/cache-budget.ts), so a journal of two-byte strings is not underestimated.
 */
const stringBytes = (text: string): number => 16 + 2 * text.length;
/** Estimated bytes of an entry beyond its strings: the entry object, its header list, numbers. */
const ENTRY_OVERHEAD_BYTES = 256;

/** An entry as kept: every string owned and bounded, credentials already redacted. */
interface KeptEntry {
  readonly id: number;
  readonly atMs: number;
  readonly method: string;
  readonly url: string;
  /** Names and values, alternating (name, value, name, value...), in the order received: one array, not one per header. */
  readonly headers: readonly string[];
  readonly body: unknown;
  readonly status: number;
  readonly code: string | undefined;
  readonly operationId: string | null;
  readonly durationMs: number;
  readonly injected: boolean;
  readonly truncated: readonly JournalPart[];
  /** Estimated bytes held by the entry (see `stringBytes`). */
  readonly bytes: number;
}

/** Notes that `part` was cut (once). */
function noteCut(cut: JournalPart[], part: JournalPart): void {
  if (!cut.includes(part)) cut.push(part);
}

/** The `truncated` of an entry nothing was cut of: one array for all of them. */
const NOTHING_CUT: readonly JournalPart[] = Object.freeze([]);

/** The headers as kept: redacted, each value and all of them bounded. */
function keptHeaders(headers: RecordedRequest['headers'], cut: JournalPart[]) {
  const out: string[] = [];
  let chars = 0;
  let bytes = 0;
  // `for...in` rather than Object.entries: no array of pairs built per request only to be read once.
  for (const name in headers) {
    const raw = headers[name];
    if (raw === undefined) continue;
    if (chars >= HEADERS_CHARS) {
      noteCut(cut, 'headers');
      break;
    }
    let value = CREDENTIAL_HEADERS.has(name.toLowerCase()) ? '[redacted]' : Array.isArray(raw) ? raw.join(', ') : raw;
    const room = Math.min(HEADER_VALUE_CHARS, HEADERS_CHARS - chars);
    if (value.length > room) {
      value = ownExcerpt(value, room);
      noteCut(cut, 'headers');
    }
    chars += value.length;
    bytes += stringBytes(name) + stringBytes(value);
    out.push(name, value);
  }
  return { headers: out, bytes };
}

/**
 * The body as kept. A body whose text fits is kept as parsed when it passed validation (an object of that small text),
 * else as its text; a longer one as an excerpt of its text, a string of its own (`ownExcerpt`), never a view of the
 * request's body.
 */
function keptBody(raw: unknown, parsed: unknown, cut: JournalPart[]): { body: unknown; bytes: number } {
  const text = typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8', 0, BODY_CHARS * 4) : null;
  if (text === null) return { body: null, bytes: 0 };
  if (text.length <= BODY_CHARS) return { body: parsed ?? text, bytes: stringBytes(text) };
  noteCut(cut, 'body');
  const excerpt = ownExcerpt(text, BODY_CHARS);
  return { body: excerpt, bytes: stringBytes(excerpt) };
}

/** Builds the kept entry of a request. */
function keep(id: number, request: RecordedRequest): KeptEntry {
  const cut: JournalPart[] = [];
  let url = request.url;
  if (url.length > URL_CHARS) {
    url = ownExcerpt(url, URL_CHARS);
    noteCut(cut, 'url');
  }
  const headers = keptHeaders(request.headers, cut);
  const body = keptBody(request.rawBody, request.parsedBody, cut);
  return {
    id,
    atMs: request.atMs,
    method: request.method,
    url,
    headers: headers.headers,
    body: body.body,
    status: request.status,
    code: request.code,
    operationId: request.operationId,
    durationMs: request.durationMs,
    injected: request.injected === true,
    truncated: cut.length === 0 ? NOTHING_CUT : cut,
    bytes: ENTRY_OVERHEAD_BYTES + stringBytes(url) + headers.bytes + body.bytes,
  };
}

/** The kept headers (names and values alternating) as the journal shows them. */
function headerRecord(kept: readonly string[]): Record<string, string> {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < kept.length; i += 2) pairs.push([kept[i] as string, kept[i + 1] as string]);
  // Own members whatever their names (a header named `__proto__` too), as Object.fromEntries defines them.
  return Object.fromEntries(pairs);
}

/**
 * The query string parsed as the journal shows it (a repeated parameter is a list), read from the kept URL when the
 * journal is read: nothing of the framework's parsed query is kept, so a query cut to `URL_CHARS` holds no more.
 */
function parseQuery(queryString: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(queryString)) {
    const seen = out[name];
    out[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}

/**
 * A tenant's most recent requests, bounded in entries and in estimated bytes (docs/DESIGN.md, "Shared sandbox"): the
 * oldest are dropped beyond either bound. A tenant's own traffic is never sampled: every request is recorded, and only
 * age drops it. Each entry holds bounded copies (`keep`), its credentials redacted when recorded, so no secret and no
 * large request stays reachable from the journal.
 */
export class RequestJournal {
  /** Oldest first from `head`; the slots before it are dropped entries, cut off now and then (`compact`). */
  private entries: (KeptEntry | undefined)[] = [];
  private head = 0;
  private nextId = 1;
  /** Estimated bytes of the entries held (16 + 2 per character of each kept string, plus a fixed overhead per entry). */
  private held = 0;

  add(request: RecordedRequest, limits: JournalLimits): void {
    const entry = keep(this.nextId++, request);
    this.entries.push(entry);
    this.held += entry.bytes;
    while (this.entries.length - this.head > limits.entries || (this.held > limits.bytes && this.size > 1))
      this.dropOldest();
    this.compact();
  }

  /** Entries held. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Oldest first, credentials redacted. */
  list(): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = this.head; i < this.entries.length; i++) {
      const kept = this.entries[i];
      if (!kept) continue;
      const q = kept.url.indexOf('?');
      const queryString = q === -1 ? '' : kept.url.slice(q + 1);
      out.push({
        id: kept.id,
        at: new Date(kept.atMs).toISOString(),
        method: kept.method,
        path: q === -1 ? kept.url : kept.url.slice(0, q),
        query: parseQuery(queryString),
        queryString,
        headers: headerRecord(kept.headers),
        body: kept.body,
        status: kept.status,
        ...(kept.code === undefined ? {} : { code: kept.code }),
        operationId: kept.operationId,
        durationMs: kept.durationMs,
        ...(kept.truncated.length > 0 ? { truncated: [...kept.truncated] } : {}),
        ...(kept.injected ? { injected: true as const } : {}),
      });
    }
    return out;
  }

  clear(): void {
    this.entries = [];
    this.head = 0;
    this.held = 0;
  }

  private dropOldest(): void {
    const oldest = this.entries[this.head];
    this.entries[this.head++] = undefined;
    this.held -= oldest?.bytes ?? 0;
  }

  /** Cuts the dropped slots off once they are as many as the entries held (amortised O(1) per entry). */
  private compact(): void {
    if (this.head > 64 && this.head >= this.size) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
