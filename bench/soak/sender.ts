import { Pool } from 'undici';
import { emptyTally, record, type KindTally } from './stats.js';

/** Every soak request gives up after this long (a timeout is an unexpected error, never a hang). */
export const REQUEST_TIMEOUT_MS = 10_000;

/** The groups request kinds belong to. */
export type Group = 'read' | 'write' | 'bad' | 'webhook';

interface Send {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  token?: string | null;
  apiKey?: string;
  body?: unknown;
  raw?: string;
}

interface Answer {
  status: number | null;
  body: any;
}

/** Sends requests over a keep-alive pool and tallies them per kind against the statuses expected for the kind. */
export class Traffic {
  readonly tallies = new Map<string, KindTally>();
  readonly groups = new Map<string, Group>();
  private readonly pool: Pool;

  constructor(
    readonly url: string,
    connections: number,
  ) {
    this.pool = new Pool(url, {
      connections,
      keepAliveTimeout: 30_000,
      headersTimeout: REQUEST_TIMEOUT_MS,
      bodyTimeout: REQUEST_TIMEOUT_MS,
    });
  }

  /** One request of a kind; `expected` lists the statuses that kind may get. Never throws. */
  async send(kind: string, group: Group, expected: readonly number[], req: Send): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    if (req.apiKey) headers['x-api-key'] = req.apiKey;
    const body = req.raw ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const started = performance.now();
    let status: number | null = null;
    let parsed: any;
    let text = '';
    try {
      const res = await this.pool.request({
        path: req.path,
        method: req.method,
        headers,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      text = await res.body.text();
      status = res.statusCode;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
    } catch (error) {
      text = `${(error as Error).name}: ${(error as Error).message}`;
    }
    let tally = this.tallies.get(kind);
    if (!tally) {
      tally = emptyTally();
      this.tallies.set(kind, tally);
      this.groups.set(kind, group);
    }
    record(
      tally,
      status,
      expected,
      performance.now() - started,
      () => `${req.method} ${req.path.slice(0, 120)} -> ${status ?? 'no answer'} ${text.slice(0, 200)}`,
    );
    return { status, body: parsed };
  }

  /** A setup request that must succeed with `status`; throws otherwise. */
  async must(status: number, req: Send): Promise<any> {
    const answer = await this.send('setup', 'read', [status], req);
    if (answer.status !== status)
      throw new Error(
        `setup ${req.method} ${req.path}: expected ${status}, got ${answer.status ?? 'no answer'} ${JSON.stringify(answer.body ?? null).slice(0, 300)}`,
      );
    return answer.body;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
