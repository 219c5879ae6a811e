import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Lingering close, for answers sent before the request's body was read (a 413 for a declared Content-Length over
 * `--body-limit`, a 415, a refusal of a hook). node:http ends such a connection with `socket.destroySoon()`: FIN, then
 * the socket is destroyed at once, and the body bytes still arriving, or unread in the kernel's buffer, make it answer
 * RST. A client still sending its body then gets the RST, which on most systems discards the answer it had not read
 * yet: an EPIPE or ECONNRESET instead of the 413. Here the answer is sent and the write side closed as before, then the
 * rest of the body is read and dropped until the client closes its side or a bound is reached, as web servers do
 * (nginx's `lingering_close`). Inferred; the bounds keep one client from holding the socket long.
 */

/** Most body bytes read and dropped after the answer (inferred: twice the largest `--body-limit` a suite commonly uses). */
const LINGER_BYTES = 8 * 1024 * 1024;

/** Longest a socket lingers after the answer (inferred: a 2 MB body takes a few ms on loopback, 2 s at 8 Mbit/s). */
const LINGER_MS = 5_000;

/** Replaces the socket's `destroySoon` (what node:http calls after the last answer) by a lingering close. */
function linger(socket: Socket): void {
  const own = socket as Socket & { destroySoon?: () => void };
  own.destroySoon = () => {
    let read = 0;
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > LINGER_BYTES) stop();
    });
    socket.once('end', stop);
    socket.once('error', stop);
    socket.end();
    socket.resume();
  };
}

/**
 * An `onSend` hook: an answer to a request whose body was not (wholly) read closes the connection, lingering. Only
 * then: a read body leaves the connection as it was (kept alive).
 */
export async function lingerWhenBodyUnread(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const raw = req.raw;
  // `complete` is false while body bytes are still due (light-my-request's requests of `inject` have no such field).
  if (raw.complete !== false || !raw.socket || raw.socket.destroyed) return payload;
  reply.header('connection', 'close');
  linger(raw.socket);
  return payload;
}
