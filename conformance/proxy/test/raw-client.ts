import { request } from 'node:http';

/** An answer as it came off the wire: status line, raw headers (names as sent, order kept) and body bytes. */
interface RawAnswer {
  status: number;
  statusText: string;
  rawHeaders: string[];
  body: Buffer;
}

interface RawRequest {
  method?: string;
  /** Path and query, sent as they are. */
  path: string;
  /** Flat `[name, value, ...]`, sent in this order with these names (no Host is added when one is given). */
  headers?: string[];
  /** The body, written chunk by chunk (several chunks without content-length: chunked). */
  body?: Buffer | Buffer[];
  timeoutMs?: number;
}

/**
 * One request on its own connection (node:http, no agent, nothing decoded), bounded by `timeoutMs` (default 10 s).
 */
export function send(baseUrl: string, r: RawRequest): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  // Node sends no Host of its own with headers given as an array: one is added at the end unless given.
  const given = r.headers ?? [];
  const headers = given.some((h, i) => i % 2 === 0 && h.toLowerCase() === 'host')
    ? given
    : [...given, 'Host', url.host];
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: r.method ?? 'GET',
        path: r.path,
        agent: false,
        setHost: false,
        headers,
        timeout: r.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            rawHeaders: [...res.rawHeaders],
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${r.path} within ${r.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    const chunks = r.body === undefined ? [] : Array.isArray(r.body) ? r.body : [r.body];
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

/** Flat raw headers as pairs, without the named ones (lower case). */
export function headerPairs(raw: readonly string[], without: readonly string[] = []): [string, string][] {
  const skip = new Set(without);
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (!skip.has(name.toLowerCase())) out.push([name, raw[i + 1] ?? '']);
  }
  return out;
}

/** The values of one header (any case). */
export function headerValues(raw: readonly string[], name: string): string[] {
  return headerPairs(raw)
    .filter(([n]) => n.toLowerCase() === name.toLowerCase())
    .map(([, v]) => v);
}
