import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Lingering close, for answers sent before the request's body was read (a 413 for a declared Content-Length over
 * `--body-limit`, a 415, a refusal of a hook). Such an answer says `Connection: close` (Fastify sets it), so a client
 * still sending its body stops (RFC 9112, 9.5). node:http ends that connection with `socket.destroySoon()` (node:net,
 * documented): FIN, then the socket destroyed as soon as the answer is written, and body bytes still arriving, or
 * unread in the kernel's buffer, make it answer RST, which on most systems discards the answer the client had not read
 * yet: an EPIPE or ECONNRESET instead of the 413. Here the socket's `destroySoon` closes the write side as before and
 * keeps the socket until the client closes its side, or a bound is reached (nginx's `lingering_close`; RFC 9112, 9.6).
 * node:http has stopped reading the unread body by then, so in practice nothing more is read: a client still writing
 * meets TCP's flow control until it reads the answer and stops, and one that never does is cut off after LINGER_MS.
 * That node:http closes such a connection through `destroySoon` is its behaviour, not its documented contract:
 * mock/test/early-answers.e2e.test.ts fails if it ever stops.
 *
 * Why not keep the connection and let node:http read and drop the rest of the body (tried, measured): a client is then
 * bound to send its whole body before the connection is usable, and a tenant sending 1 MB refused bodies at 60 a second
 * (bench noisy-neighbour's attacker, undici) cost the mock 1.2x to 2.5x the CPU of this lingering close.
 * Inferred; the bounds keep one client from holding the socket long.
 */

/** Most bytes read and dropped from the socket after the answer (inferred: twice the largest `--body-limit` commonly used). */
const LINGER_BYTES = 8 * 1024 * 1024;

/** Longest a socket lingers after the answer (inferred: a 2 MB body takes a few ms on loopback, 2 s at 8 Mbit/s). */
const LINGER_MS = 5_000;

/**
 * Replaces the socket's `destroySoon` (what node:http calls after the last answer) by a lingering close; `released`
 * once the socket is gone.
 */
function linger(socket: Socket, released: () => void): void {
  // Counted from now until the socket is gone, however it goes (an error may destroy it before the answer is out).
  socket.once('close', released);
  socket.destroySoon = () => {
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

/** Whether a request has a body at all (RFC 9112, 6.3: a Transfer-Encoding, or a Content-Length other than 0). */
function declaresBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The `onSend` hook: an answer to a request whose body was not (wholly) read closes the connection, lingering. Only
 * then: a read body leaves the connection as it was (kept alive).
 *
 * At most `maxLingering` sockets linger at once (the shell gives a quarter of `--max-connections`); beyond it the
 * connection is closed as node:http closes it, its client perhaps reset before it reads the answer. Why: a lingering
 * socket is not read, so a client that closed its side is only noticed at LINGER_MS, and each such socket counts
 * against the connection cap; a client sending refused bodies at 160 a second, even one that stops at every answer,
 * would otherwise hold 800 of them (the default cap) and every other tenant would be refused a connection.
 */
export function lingerWhenBodyUnread(maxLingering: number) {
  let lingering = 0;
  const released = () => {
    lingering--;
  };
  /** Closes the connection of an answer whose request still has body bytes due, lingering (within the bound). */
  const closeUnread = (raw: FastifyRequest['raw'], reply: FastifyReply) => {
    if (raw.complete !== false || !raw.socket || raw.socket.destroyed) return;
    reply.header('connection', 'close');
    if (lingering < maxLingering) {
      lingering++;
      linger(raw.socket, released);
    }
  };
  // A callback hook, not an async one: it runs for every answer, and a promise each is a cost of its own.
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const raw = req.raw;
    // `complete` is false while body bytes are still due (light-my-request's requests of `inject` have no such field).
    // It is also false while node:http's parser is still inside the chunk that carried the request's head: an answer
    // found without waiting (mock/http/request-path.ts, a hook's refusal) comes in that moment, before the parser has
    // read the rest of the chunk (a bodiless request's end, or a small body all there). Only a declared body can be
    // left unread, and whether it was is decided once the parser is done with the chunk: on the next turn of the loop.
    if (raw.complete !== false || !declaresBody(raw.headers)) {
      done(null, payload);
      return;
    }
    setImmediate(() => {
      closeUnread(raw, reply);
      done(null, payload);
    });
  };
}
