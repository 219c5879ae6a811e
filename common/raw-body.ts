import type { IncomingMessage } from 'node:http';

/** A request body as received: its bytes, or the first `max` of them when it is larger (`truncated`). */
interface RawBody {
  readonly raw: Buffer;
  readonly truncated: boolean;
}

/**
 * Reads a request body as raw bytes, at most `max`: a body declared or sent larger is not read further (the caller
 * answers and closes the connection), so a huge upload costs no memory. Rejects when the client aborts.
 */
export function readRawBody(req: IncomingMessage, max: number): Promise<RawBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) {
    req.pause();
    return Promise.resolve({ raw: Buffer.alloc(0), truncated: true });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (body: RawBody) => {
      done = true;
      resolve(body);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      if (size + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - size));
        req.pause();
        finish({ raw: Buffer.concat(chunks), truncated: true });
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) finish({ raw: Buffer.concat(chunks), truncated: false });
    });
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      reject(error);
    };
    req.on('error', fail);
    req.on('close', () => fail(new Error('the request closed before its body ended')));
  });
}
