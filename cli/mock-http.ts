/**
 * One HTTP exchange of a command with the mock (its admin API or a `/v1` read), through Node's built-in `fetch`.
 * Why not the undici package the runner and the mock's webhooks use: those need its agents and raw answers, these
 * calls only a status, a header and a small JSON text, and loading the package cost every `opsapi token`, `team`,
 * `trigger`, `coverage`, `client-checks` and `listen` start ~0.1 s of CPU of the ~0.2-0.45 s it takes from dist/
 * (measured on 2 cores); the built-in one is part of Node.
 */
export interface MockAnswer {
  readonly status: number;
  /** A header of the answer, when it has one (names are case-insensitive). */
  header(name: string): string | undefined;
  /** The whole body as text ('' when it could not be read). */
  readonly text: string;
}

/** Thrown when no answer came: the words say why on one line (refused, reset, timed out, not a URL). */
export class MockUnreachable extends Error {}

export async function exchangeWithMock(
  url: string,
  init: {
    readonly method?: 'GET' | 'POST' | 'DELETE';
    readonly headers: Record<string, string>;
    readonly body?: string;
    readonly timeoutMs: number;
  },
): Promise<MockAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: init.headers,
      ...(init.body !== undefined ? { body: init.body } : {}),
      // As a plain HTTP client: a redirect is the mock's answer, not a place to go (the keys are never sent on).
      redirect: 'manual',
      signal: AbortSignal.timeout(init.timeoutMs),
    });
  } catch (error) {
    throw new MockUnreachable(unreachableReason(error));
  }
  const text = await res.text().catch(() => '');
  return { status: res.status, header: (name) => res.headers.get(name) ?? undefined, text };
}

/**
 * `fetch` rejects with "fetch failed" and the reason in `cause` (ECONNREFUSED, a reset, a bad address), or with a
 * TimeoutError of the signal: the line names the reason.
 */
function unreachableReason(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const reason = cause instanceof Error ? cause : error;
  const words =
    (reason as { name?: string }).name === 'TimeoutError' ? 'timed out' : String((reason as Error)?.message ?? reason);
  return words.replace(/\s*\n\s*/g, ' ').trim();
}
