import type { onSendHookHandler } from 'fastify';
import { plainProblem } from '../problems.js';
import { StateWriteError } from './journal-writer.js';
import type { Persistence } from './persistence.js';

/** Seconds a client is asked to wait before trying again while the state file cannot be written. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The `onSend` hook that makes an answer wait until the writes before it are durable (group commit), and replaces it
 * by a 503 problem when they could not be written (a full disk, an I/O error): a write is acknowledged only once it
 * is on disk (docs/DESIGN.md, "Shared sandbox": nothing acknowledged is lost). Inferred: the reference has no code
 * for a server that cannot keep a write; 503 with `Retry-After` is HTTP's answer for a condition the server expects
 * to pass (RFC 9110, 15.6.4), and the write is kept buffered and written again by the next answer, so a client that
 * retries finds it (an unacknowledged write may still become durable, as one cut by a crash may). Every answer waiting
 * on the failed write gets the 503, reads included: what they would show is not durable.
 */
export function durableAnswer(persistence: Persistence, warn: (message: string) => void): onSendHookHandler {
  let failing = false;
  return async (req, reply, payload) => {
    try {
      await persistence.sync();
    } catch (error) {
      // Anything else is a defect of the mock: the shell's error handler logs it and answers 500.
      if (!(error instanceof StateWriteError)) throw error;
      if (!failing) warn(`${(error as Error).message}; answering 503 until the state file can be written again`);
      failing = true;
      const path = req.url.split('?')[0] ?? req.url;
      const problem = plainProblem(
        503,
        'The mock could not make this write durable (its state file cannot be written); the write is not acknowledged. Try again later.',
        { method: req.method, path },
      );
      reply.removeHeader('location');
      reply.removeHeader('etag');
      reply.code(503).type('application/problem+json').header('retry-after', String(RETRY_AFTER_SECONDS));
      return JSON.stringify(problem.body);
    }
    if (failing) warn('the state file can be written again; writes are acknowledged again');
    failing = false;
    return payload;
  };
}
