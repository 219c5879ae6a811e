import type { OutgoingHttpHeaders } from 'node:http';
import { request } from 'undici';

/** What the forward target answered: its status, the first bytes of its body and its content type. */
interface Forwarded {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: OutgoingHttpHeaders;
}

/**
 * POSTs a delivery's raw bytes and headers to `target` (`opsapi listen --forward-to`) and reads at most `excerptBytes`
 * of the answer. In a module of its own so that undici is loaded with the first forward only: most listeners forward
 * nothing. Throws as undici does (a TimeoutError when `timeoutMs` passes).
 */
export async function forwardDelivery(
  target: string,
  headers: Record<string, string | string[]>,
  raw: Buffer,
  options: { readonly timeoutMs: number; readonly excerptBytes: number },
): Promise<Forwarded> {
  const res = await request(target, {
    method: 'POST',
    headers,
    body: raw,
    signal: AbortSignal.timeout(options.timeoutMs),
  });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= options.excerptBytes) break;
  }
  const type = res.headers['content-type'];
  return {
    status: res.statusCode,
    body: Buffer.concat(chunks).subarray(0, options.excerptBytes),
    headers: typeof type === 'string' ? { 'content-type': type } : {},
  };
}
