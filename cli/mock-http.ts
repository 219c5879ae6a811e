import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { oneLine } from './preflight.js';

/**
 * One HTTP exchange of a command with the mock (its admin API or a `/v1` read), through `node:http` / `node:https`.
 * Why not the undici package the runner and the mock's webhooks use: those need its agents and raw answers, these
 * calls only a status, a header and a small JSON text, and loading the package cost every `opsapi token`, `team`,
 * `trigger`, `coverage`, `client-checks` and `listen` start ~0.1 s of CPU of the ~0.2-0.45 s it takes from dist/
 * (measured on 2 cores). Not the global `fetch` either: it refuses the ports of the Fetch standard's "bad port" list
 * (6000, 5060, 10080, ...), on which a mock may well listen.
 */
export interface MockAnswer {
  readonly status: number;
  /** A header of the answer, when it has one (names are case-insensitive; repeated values joined with ", "). */
  header(name: string): string | undefined;
  /** The whole body as text ('' when it could not be read). */
  readonly text: string;
}

/**
 * Rejected with when no answer came: the words say why on one line (refused, reset, timed out, not an HTTP URL, a
 * header Node will not send). The only rejection of `exchangeWithMock`.
 */
export class MockUnreachable extends Error {}

export function exchangeWithMock(
  url: string,
  init: {
    readonly method?: 'GET' | 'POST' | 'DELETE';
    readonly headers: Record<string, string>;
    readonly body?: string;
    readonly timeoutMs: number;
  },
): Promise<MockAnswer> {
  return new Promise((resolve, reject) => {
    const unreachable = (error: unknown) => reject(new MockUnreachable(unreachableReason(error)));
    let req: ReturnType<typeof httpRequest>;
    try {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new Error(`${target.protocol} is not HTTP`);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      // As a plain HTTP client: a redirect is the mock's answer, not a place to go (the keys are never sent on).
      // Node refuses a header with a control character here, before sending anything (a --header given by hand).
      req = send(target, {
        method: init.method ?? 'GET',
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { 'content-length': String(Buffer.byteLength(init.body)) } : {}),
        },
        signal: AbortSignal.timeout(init.timeoutMs),
      });
    } catch (error) {
      unreachable(error);
      return;
    }
    req.once('error', unreachable);
    req.once('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      const answer = (text: string) =>
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : value;
          },
          text,
        });
      res.once('end', () => answer(Buffer.concat(chunks).toString('utf8')));
      // A body cut short (reset, timed out) is no body: the status and the headers still answer.
      res.once('error', () => answer(''));
    });
    req.end(init.body);
  });
}

/** The reason on one line: a timeout says so; an aborted request carries the signal's reason as its `cause`. */
function unreachableReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const reason = (error as { name?: string } | null)?.name === 'AbortError' && cause !== undefined ? cause : error;
  return (reason as { name?: string } | null)?.name === 'TimeoutError' ? 'timed out' : oneLine(reason);
}
