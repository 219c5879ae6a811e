import { type MockKeys, mockKeyHeaders, mockKeyRefusal } from '../common/mock-keys.js';
import { exchangeWithMock, type MockAnswer, MockUnreachable } from './mock-http.js';
import { oneLine } from './preflight.js';

/** How long one call to the admin API may take before the command gives up on the mock. */
const CALL_TIMEOUT_MS = 15_000;

/** Why a call gave no answer to read: no answer came, one that is not JSON came, or the mock refused the keys. */
type AdminCallFailure = 'unreachable' | 'not-json' | 'refused';

/** What a call to the mock's admin API answered: its status, JSON body and the problem's words, if any. */
interface AdminAnswer {
  readonly status: number;
  readonly json: unknown;
  /** The problem's `detail` (or `title`) on one line, when the body is one. */
  readonly said: string | undefined;
}

/**
 * One call to the mock's `/__mock/*` routes with the admin or team key (and the tenant's token, when the route is
 * tenant-scoped): the answer, or `fail` with one line (an unreachable mock, a body that is not JSON, refused keys).
 * What a status means beyond that is the command's (docs/DESIGN.md, "CLI and exit codes").
 */
export async function callMockAdmin(
  call: {
    readonly baseUrl: string;
    readonly method: 'GET' | 'POST' | 'DELETE';
    readonly path: string;
    readonly body?: unknown;
    readonly keys: MockKeys;
    readonly token?: string;
    /** More headers (a command's `--header`); never in place of the credentials. */
    readonly headers?: Record<string, string>;
    readonly timeoutMs?: number;
  },
  fail: (message: string, why: AdminCallFailure) => never,
): Promise<AdminAnswer> {
  const { baseUrl, method, body, keys, token } = call;
  const url = `${baseUrl.replace(/\/+$/, '')}${call.path}`;
  let res: MockAnswer;
  try {
    res = await exchangeWithMock(url, {
      method,
      headers: {
        ...call.headers,
        accept: 'application/json',
        ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}),
        ...mockKeyHeaders(keys),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      timeoutMs: call.timeoutMs ?? CALL_TIMEOUT_MS,
    });
  } catch (error) {
    if (!(error instanceof MockUnreachable)) throw error;
    fail(`cannot reach ${baseUrl}: ${error.message}`, 'unreachable');
  }
  const { text } = res;
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    fail(
      `${method} ${url} answered ${res.status} with a body that is not JSON; is it the mock, with its admin API on?`,
      'not-json',
    );
  }
  const problem = json as { detail?: unknown; title?: unknown } | null | undefined;
  const words = problem?.detail ?? problem?.title;
  const said = typeof words === 'string' ? oneLine(words) : undefined;
  const refusal = mockKeyRefusal(keys, {
    status: res.status,
    wwwAuthenticate: res.header('www-authenticate'),
    detail: said,
  });
  if (refusal) fail(`${baseUrl}: ${refusal}`, 'refused');
  return { status: res.status, json, said };
}
