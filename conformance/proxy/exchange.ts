/** One exchange as the proxy forwarded it: the request as received and the answer as the target sent it. */
export interface CapturedExchange {
  /** 1, 2, ... in order of arrival. */
  seq: number;
  /** Epoch ms. */
  startedAt: number;
  /** Until the last response byte was written to the client. */
  durationMs: number;
  method: string;
  /** Path and query exactly as received. */
  target: string;
  /** Of the client request, e.g. "1.1". */
  httpVersion: string;
  /** As received (raw names, order kept), hop-by-hop ones included. */
  requestHeaders: [string, string][];
  /** The first `captureBytes` bytes. */
  requestBody: Buffer;
  requestBodySize: number;
  /** 0 when the target could not be reached (then `error` says why). */
  status: number;
  statusText: string;
  /** As the target sent them. */
  responseHeaders: [string, string][];
  /** The first `captureBytes` bytes, as sent (never decompressed). */
  responseBody: Buffer;
  responseBodySize: number;
  /** Transport failure towards the target (connect refused, timeout, reset). */
  error?: string;
}

/** The value of the first header named `name` (lowercase) among header pairs, or undefined. */
export function headerValue(headers: readonly (readonly [string, string])[], name: string): string | undefined {
  for (const [n, v] of headers) if (n.length === name.length && n.toLowerCase() === name) return v;
  return undefined;
}

/** Raw header lines ([name, value, name, value, ...]) as pairs, names and order kept. */
export function pairsOf(raw: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] as string, raw[i + 1] as string]);
  return out;
}

/** Keeps the first `limit` bytes of a body passing through, and counts all of them. */
export class BodyCapture {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  /** Every byte seen. */
  size = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.kept >= this.limit) return;
    const part = chunk.length <= this.limit - this.kept ? chunk : chunk.subarray(0, this.limit - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }

  /** The bytes kept (at most `limit`). */
  bytes(): Buffer {
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.kept);
  }
}
