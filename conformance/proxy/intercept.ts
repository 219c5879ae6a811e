import { STATUS_CODES } from 'node:http';
import { reasonOf } from './bad-gateway.js';
import type { ExchangeEntry } from './exchange-entry.js';
import { head } from './wire.js';

/** A request the proxy answers itself (see `Interceptor`). */
export interface InterceptedRequest {
  method: string;
  /** Path and query as received. */
  target: string;
  headers: [string, string][];
}

/** The proxy's own answer to an intercepted request. */
export interface InterceptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Requests whose path starts with `prefix` are answered by `answer`, never forwarded and never reported. */
export interface Interceptor {
  prefix: string;
  answer(request: InterceptedRequest): InterceptedAnswer | Promise<InterceptedAnswer>;
}

/** The JSON problem answer of an intercepting function that failed: the proxy's own bug, said plainly. */
function interceptFailed(error: unknown): InterceptedAnswer {
  return {
    status: 500,
    headers: { 'content-type': 'application/problem+json' },
    body: JSON.stringify({ title: 'Internal Server Error', status: 500, detail: reasonOf(error) }),
  };
}

/** The interceptor's answer to an entry's request; a throw or rejection becomes a 500 problem. */
export function askInterceptor(
  intercept: Interceptor,
  entry: ExchangeEntry,
): InterceptedAnswer | Promise<InterceptedAnswer> {
  try {
    const answer = intercept.answer({ method: entry.method, target: entry.target, headers: entry.requestHeaders });
    return answer instanceof Promise ? answer.catch(interceptFailed) : answer;
  } catch (error) {
    return interceptFailed(error);
  }
}

/** The bytes of an intercepted answer: its head (sized; closing when the client does not keep alive), then its body. */
export function answerBytes(answer: InterceptedAnswer, keepAlive: boolean): [Buffer, Buffer] {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body) : (answer.body ?? Buffer.alloc(0));
  const headers = Object.entries(answer.headers ?? {}).flat();
  headers.push('Content-Length', String(body.length));
  const status = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`;
  return [head(status, headers, keepAlive ? [] : ['Connection: close']), body];
}
