import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Lingering close, for answers sent before the request's body was read (a 413 for a declared Content-Length over
 * `--body-limit`, a 415, a refusal of a hook). Fastify marks such an answer `Connection: close`, and node:http then
 * ends the connection as soon as the answer is written: the body bytes still arriving, or unread in the kernel's
 * buffer, make the socket answer RST. A client still sending its body then gets the RST, which on most systems discards
 * the answer it had not read yet: an EPIPE or ECONNRESET instead of the 413. Here the answer keeps the connection
 * instead, and the rest of the body is read and dropped (node:http reads a request's remaining body before the next
 * one), within bounds, as web servers do (nginx's `lingering_close`); RFC 9110, 15.5.14: a server that refuses a
 * body may go on reading and discarding it. Past a bound the connection is destroyed. Inferred; the bounds keep one
 * client from holding the socket long. Only documented APIs: a `data` listener, a timer, `socket.destroy()`.
 */

/** Most body bytes read and dropped after the answer (inferred: twice the largest `--body-limit` a suite commonly uses). */
const LINGER_BYTES = 8 * 1024 * 1024;

/** Longest the rest of a body may take after the answer (inferred: a 2 MB body takes a few ms on loopback, 2 s at 8 Mbit/s). */
const LINGER_MS = 5_000;

/** Reads and drops the rest of `raw`'s body; destroys its connection past LINGER_BYTES or LINGER_MS. */
function drainBounded(raw: IncomingMessage): void {
  const socket = raw.socket;
  let read = 0;
  const giveUp = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(giveUp, LINGER_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_BYTES) giveUp();
  });
  raw.once('end', () => clearTimeout(timer));
  raw.once('error', () => clearTimeout(timer));
  raw.resume();
}

/**
 * An `onSend` hook: an answer to a request whose body was not (wholly) read keeps its connection while the rest of the
 * body is dropped, within bounds. Any other answer is left as it was.
 */
export async function lingerWhenBodyUnread(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const raw = req.raw;
  // `complete` is false while body bytes are still due (light-my-request's requests of `inject` have no such field).
  if (raw.complete !== false || !raw.socket || raw.socket.destroyed) return payload;
  reply.removeHeader('connection');
  drainBounded(raw);
  return payload;
}
