import { type MockKeys, mockKeyHeaders, mockKeyRefusal } from '../../common/mock-keys.js';
import { exchangeWithMock, type MockAnswer, MockUnreachable } from '../mock-http.js';

/** An answer of the API that is not the expected one. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The mock's admin API refused the admin or team key, wanted one, or the team key does not reach the tenant (a usage
 * error of the command, not an API answer).
 */
export class MockKeyError extends ApiError {
  constructor(message: string, status: number) {
    super(message, status);
    this.name = 'MockKeyError';
  }
}

/** A subscription as the API returns it. */
interface SubscriptionRecord {
  id: string;
  endpoint: string;
  eventName: string;
  eventVersion: number;
}

const RETRIES_ON_429 = 5;

/** The `detail` of a problem body, when the text is one. */
function detailOf(text: string): string | undefined {
  try {
    const detail = (JSON.parse(text) as { detail?: unknown } | null)?.detail;
    return typeof detail === 'string' ? detail : undefined;
  } catch {
    return undefined;
  }
}
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The few calls `opsapi listen` makes to the API (mock or real): event versions, subscriptions and, on the mock,
 * the webhook secret. A 429 is retried after its `Retry-After` (a few times); any other unexpected answer throws
 * an `ApiError` naming the call and the problem's detail.
 */
export class ListenApi {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private token: string,
    /** The mock's admin key or a team key (`--admin-key`, `--team-key`), sent on `/__mock/*` calls only. */
    private readonly keys: MockKeys = {},
  ) {
    this.base = baseUrl.replace(/\/+$/, '');
  }

  /** Replaces the bearer token (a fresh one for the clean-up at exit). */
  useToken(token: string): void {
    this.token = token;
  }

  /** Every event name and version the environment has. */
  async eventVersions(): Promise<{ eventName: string; eventVersion: number }[]> {
    return (await this.call('GET', '/v1/notifications/events/versions', 200)) as {
      eventName: string;
      eventVersion: number;
    }[];
  }

  async subscribe(endpoint: string, eventName: string, eventVersion: number): Promise<SubscriptionRecord> {
    return (await this.call('POST', '/v1/notifications/webhook/subscriptions', 201, {
      endpoint,
      eventName,
      eventVersion,
    })) as SubscriptionRecord;
  }

  /** Deletes a subscription; one already gone (404) counts as deleted. */
  async unsubscribe(id: string): Promise<void> {
    await this.call('DELETE', `/v1/notifications/webhook/subscriptions/${encodeURIComponent(id)}`, [204, 404]);
  }

  /** Every subscription of the tenant. */
  async subscriptions(): Promise<SubscriptionRecord[]> {
    const all: SubscriptionRecord[] = [];
    for (let page = 1; page <= 100; page++) {
      const body = (await this.call(
        'GET',
        `/v1/notifications/webhook/subscriptions?pageSize=1000&pageNumber=${page}`,
        200,
      )) as { results: SubscriptionRecord[]; totalPages: number };
      all.push(...body.results);
      if (page >= body.totalPages) break;
    }
    return all;
  }

  /** The tenant's webhook secret (mock only: `GET /__mock/webhook-secret`). */
  async webhookSecret(): Promise<string> {
    const body = (await this.call('GET', '/__mock/webhook-secret', 200)) as { secret?: unknown };
    if (typeof body.secret !== 'string' || !body.secret)
      throw new ApiError('GET /__mock/webhook-secret answered no secret', 200);
    return body.secret;
  }

  private async call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    expected: number | number[],
    body?: unknown,
  ): Promise<unknown> {
    const wanted = Array.isArray(expected) ? expected : [expected];
    for (let attempt = 0; ; attempt++) {
      let res: MockAnswer;
      try {
        res = await exchangeWithMock(`${this.base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${this.token}`,
            accept: 'application/json',
            ...(path.startsWith('/__mock/') ? mockKeyHeaders(this.keys) : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
      } catch (error) {
        if (!(error instanceof MockUnreachable)) throw error;
        throw new ApiError(`cannot reach ${this.base} (${method} ${path}): ${error.message}`, null);
      }
      const { text } = res;
      const refusal = path.startsWith('/__mock/')
        ? mockKeyRefusal(this.keys, {
            status: res.status,
            wwwAuthenticate: res.header('www-authenticate'),
            detail: detailOf(text),
          })
        : null;
      if (refusal) throw new MockKeyError(`${method} ${path}: ${refusal}`, res.status);
      if (res.status === 429 && attempt < RETRIES_ON_429) {
        const after = Number(res.header('retry-after'));
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 500, 5000)),
        );
        continue;
      }
      if (!wanted.includes(res.status)) {
        let detail = text.slice(0, 300);
        try {
          const problem = JSON.parse(text) as { detail?: string; code?: string; title?: string };
          detail = [problem.code, problem.detail ?? problem.title].filter(Boolean).join(': ') || detail;
        } catch {
          // not JSON: keep the text
        }
        throw new ApiError(`${method} ${path} answered ${res.status}${detail ? `: ${detail}` : ''}`, res.status);
      }
      if (!text) return undefined;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new ApiError(`${method} ${path} answered ${res.status} with a body that is not JSON`, res.status);
      }
    }
  }
}
