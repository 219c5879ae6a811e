import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiProblem } from './problems.js';

/** Largest accepted request body (Limits: "maximum request body sizes: not shown"; 1 MiB is this server's choice). */
const MAX_BODY_BYTES = 1024 * 1024;

/** Sends a JSON body (Data formats: responses are JSON). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends a status without a body (Update SKU stock: "no content"). */
export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

function tooLarge(): ApiProblem {
  return ApiProblem.coded('COMMON.FILE.SIZE_EXCEEDS_LIMIT', `the request body exceeds ${MAX_BODY_BYTES} bytes`, {
    maxBytes: MAX_BODY_BYTES,
  });
}

/** Reads the raw body, refusing more than MAX_BODY_BYTES without buffering it. */
function readRawBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!failed) {
        failed = true;
        reject(error);
      }
    });
  });
}

/**
 * Reads the body as JSON. An empty body is `undefined`; text that is not JSON is refused with
 * COMMON.VALIDATION.ERROR (422, this server's choice: the reference gives no status for that code).
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readRawBody(req);
  const text = raw.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ApiProblem.validation('the request body is not valid JSON');
  }
}

/** A plain JSON object (not an array, not null), as every documented request body is. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The body as an object, or a 422 COMMON.VALIDATION.ERROR naming what was expected. */
export function requireObject(body: unknown, what: string): Record<string, unknown> {
  if (!isRecord(body)) throw ApiProblem.validation(`the request body must be a JSON object (${what})`);
  return body;
}
