import { Agent, request } from 'undici';

/** One keep-alive agent for the bench's own calls (setup, triggers, polling). */
export const agent = new Agent({ connections: 64, keepAliveTimeout: 10_000 });

interface Answer {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
  json<T = unknown>(): T;
}

/** A request with a JSON body (if any), bounded by `timeoutMs`; never throws on a status. */
export async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url, {
    method,
    headers,
    body: options.body !== undefined ? JSON.stringify(options.body) : null,
    dispatcher: agent,
    headersTimeout: options.timeoutMs ?? 30_000,
    bodyTimeout: options.timeoutMs ?? 30_000,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

/** A call that must answer `status`; throws with the body otherwise. */
export async function expectStatus(
  status: number,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { token?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Answer> {
  const answer = await call(method, url, options);
  if (answer.status !== status)
    throw new Error(`${method} ${url}: expected ${status}, got ${answer.status}: ${answer.text.slice(0, 500)}`);
  return answer;
}
