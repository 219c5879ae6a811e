import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import pLimit, { type LimitFunction } from 'p-limit';
import { Pacer, type PaceRate } from './pacer.js';
import { indicatedDelay } from './retry-delay.js';
import type { Redactor } from './redact.js';
import type { Evidence, RecordedRequest, RecordedResponse } from '../types.js';

/** Who a request claims to be. */
export type Credential =
  | 'main'
  | 'limited'
  | 'other'
  | 'none'
  | { bearer: string }
  | { apiKey: string }
  | { headers: Record<string, string> };

/** One request of a check. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'PATCH';
  /** Path below the base URL, starting with `/` (may carry a query string). */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** JSON body (serialised) ... */
  json?: unknown;
  /** ... or a raw body, sent as is. */
  raw?: string;
  headers?: Record<string, string>;
  auth?: Credential;
  /** Wait and retry on 429 (default true); the rate-limit probe turns it off. */
  honour429?: boolean;
}

/** A recorded exchange: the request, the response and what the runner knows about it. */
export interface Exchange {
  seq: number;
  check: string;
  method: string;
  /** Path below the base URL, without the query string. */
  path: string;
  /** The full path as sent, query string included. */
  target: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON body, or undefined when there is no body or it is not JSON. */
  json: unknown;
  durationMs: number;
  /** The contract operation the request addressed, when it matches one. */
  operationId?: string;
}

/** The target kept answering 429 for a check that is not the rate-limit probe. */
export class RateLimitedError extends Error {
  constructor(readonly exchange: Exchange) {
    super('rate limited');
  }
}

/** The request failed below HTTP (connection, TLS, timeout). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The bound of `--concurrency`: at most `concurrency` (at least 1) tasks run at once, the others start in the order
 * they asked. p-limit takes a slot in the same turn a finishing task gives it back, so a newcomer never slips in
 * between and the bound holds at every moment.
 */
export function requestBound(concurrency: number): LimitFunction {
  return pLimit(Math.max(1, concurrency));
}

export interface ClientOptions {
  baseUrl: string;
  timeoutMs: number;
  concurrency: number;
  /** Headers sent on every request (`--header`). */
  headers: Record<string, string>;
  redactor: Redactor;
  /** Headers of a credential, or null when the run has no such credential. */
  credentialHeaders: (credential: Credential) => Record<string, string> | null;
  /** What a 401 means for the run's own credentials (renewed, refused, or the target's answer to a check). */
  credentialGuard?: CredentialGuardHook;
  /** The operation a method and path address. */
  matchOperation: (method: string, path: string) => string | undefined;
  /** Longest wait honoured for a 429's Retry-After, ms. */
  maxRetryAfterMs?: number;
  /** The rate each tenant's requests are kept under (null or absent: unpaced). */
  pace?: PaceRate | null;
  /** The tenant whose rate limit a request counts against, or undefined for a request that is not paced. */
  paceGroup?: (spec: RequestSpec) => string | undefined;
}

/**
 * The client's view of the run's credentials (`orchestration/credential-guard.ts`): a 401 may mean that a credential of
 * the run expired, not that the target broke a rule (Authentication, point 3).
 */
export interface CredentialGuardHook {
  /**
   * A 401 answered `spec`, sent with the credential headers `sent` (`retried`: it was already sent again once):
   * 'retry' when the credential was renewed, 'answer' to hand the 401 to the check; throws the refusal when the run's
   * credential itself is refused, which halts the run.
   */
  unauthorized(
    check: string,
    spec: RequestSpec,
    sent: Record<string, string>,
    retried: boolean,
  ): Promise<'retry' | 'answer'>;
  /** The refusal that halted the run, if any. */
  readonly refusal: Error | undefined;
}

/** The check name of clean-up requests, which still go out after a refusal halted the run (what it created is removed). */
const CLEANUP = 'cleanup';

/** Characters of a body kept in evidence. */
const EVIDENCE_BODY_CHARS = 2000;

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Builds `path?query` from a path and query values (undefined values are left out). */
export function withQuery(path: string, query: Record<string, string | number | undefined> | undefined): string {
  if (!query) return path;
  const parts = Object.entries(query)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  if (parts.length === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

/**
 * The runner's HTTP client (undici): bounded concurrency, a timeout per request, credentials by name, each tenant's
 * requests paced under its assumed rate limit (`pacer.ts`), 429s honoured (waits `Retry-After`, then gives up with
 * `RateLimitedError`), and every exchange recorded with credentials redacted.
 */
export class HttpClient {
  readonly exchanges: Exchange[] = [];
  private seq = 0;
  private readonly requestSlots: LimitFunction;
  private readonly dispatcher: Dispatcher;
  private readonly base: string;
  private readonly pacers = new Map<string, Pacer>();

  constructor(readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.requestSlots = requestBound(options.concurrency);
    this.dispatcher = new Agent({
      connections: Math.max(8, options.concurrency * 2),
      keepAliveTimeout: 4000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  }

  /** Sends a request on behalf of a check (through the concurrency bound). */
  async send(check: string, spec: RequestSpec, bound = true): Promise<Exchange> {
    const go = async () => {
      let retried = false;
      const pacer = this.pacerOf(spec);
      for (let attempt = 0; ; attempt++) {
        const halted = this.halted;
        // A refused credential stops the run: no more traffic but the clean-up of what it created.
        if (halted && check !== CLEANUP) throw halted;
        await pacer?.take();
        const sent = this.credentialHeadersOf(spec);
        const exchange = await this.once(check, spec, sent);
        const guard = this.options.credentialGuard;
        if (exchange.status === 401 && guard) {
          const next = await guard.unauthorized(check, spec, sent, retried);
          if (next === 'retry' && !retried) {
            retried = true;
            continue;
          }
        }
        if (exchange.status === 429 && spec.honour429 !== false) {
          if (attempt >= 2) throw new RateLimitedError(exchange);
          // "the caller retries after the indicated delay" (Errors / Status and code pairs): wherever the target
          // indicates it (Retry-After or another header or member, retry-delay.ts); 1 s when it indicates none.
          const wait = Math.max(
            200,
            Math.min(indicatedDelay(exchange)?.ms ?? 1000, this.options.maxRetryAfterMs ?? 30_000),
          );
          pacer?.limited(wait);
          await sleep(wait);
          continue;
        }
        return exchange;
      }
    };
    return bound ? this.requestSlots(go) : go();
  }

  /** The refusal of a credential that halted the run, if any (`orchestration/credential-guard.ts`). */
  get halted(): Error | undefined {
    return this.options.credentialGuard?.refusal;
  }

  /** The credential headers of a request (read at each attempt: a renewed token is sent again). */
  private credentialHeadersOf(spec: RequestSpec): Record<string, string> {
    const credential = spec.auth ?? 'main';
    const headers = this.options.credentialHeaders(credential);
    if (headers === null)
      throw new TransportError(
        `no credential "${typeof credential === 'string' ? credential : 'custom'}" for this run`,
        'NO_CREDENTIAL',
      );
    return headers;
  }

  /** Whether a request waits for its pace now: the rate limit, not this process, sets the pace of the run. */
  pacing(): boolean {
    for (const pacer of this.pacers.values()) if (pacer.waiting) return true;
    return false;
  }

  /** The pacer of the tenant a request counts against (one per tenant, made on first use), if it is paced. */
  private pacerOf(spec: RequestSpec): Pacer | undefined {
    const { pace, paceGroup } = this.options;
    if (!pace || !paceGroup) return undefined;
    const group = paceGroup(spec);
    if (group === undefined) return undefined;
    let pacer = this.pacers.get(group);
    if (!pacer) {
      pacer = new Pacer(pace);
      this.pacers.set(group, pacer);
    }
    return pacer;
  }

  private async once(check: string, spec: RequestSpec, credentialHeaders: Record<string, string>): Promise<Exchange> {
    const target = withQuery(spec.path, spec.query);
    const url = `${this.base}${target}`;
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      ...this.options.headers,
    };
    Object.assign(headers, credentialHeaders);
    let body: string | undefined;
    if (spec.raw !== undefined) body = spec.raw;
    else if (spec.json !== undefined) body = JSON.stringify(spec.json);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    Object.assign(headers, spec.headers ?? {});
    const started = performance.now();
    let status: number;
    let responseHeaders: Record<string, string>;
    let text: string;
    try {
      const res = await request(url, {
        method: spec.method,
        headers,
        body,
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      status = res.statusCode;
      responseHeaders = {};
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) responseHeaders[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      text = await res.body.text();
    } catch (error) {
      const e = error as {
        message?: string;
        code?: string;
        name?: string;
        cause?: { code?: string; message?: string };
      };
      const code = e.code ?? e.cause?.code ?? e.name;
      const timedOut =
        e.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
      throw new TransportError(
        timedOut
          ? `${spec.method} ${target}: no answer within ${this.options.timeoutMs} ms`
          : `${spec.method} ${target}: ${e.cause?.message ?? e.message ?? String(error)}`,
        timedOut ? 'TIMEOUT' : code,
      );
    }
    let json: unknown;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const exchange: Exchange = {
      seq: ++this.seq,
      check,
      method: spec.method,
      path,
      target,
      url: this.options.redactor.text(url),
      requestHeaders: this.options.redactor.headers(headers),
      ...(body !== undefined ? { requestBody: this.options.redactor.text(body) } : {}),
      status,
      headers: this.options.redactor.headers(responseHeaders),
      text,
      json,
      durationMs: Math.round(performance.now() - started),
    };
    const operationId = this.options.matchOperation(spec.method, path);
    if (operationId) exchange.operationId = operationId;
    this.exchanges.push(exchange);
    return exchange;
  }

  async close(): Promise<void> {
    await this.dispatcher.close().catch(() => undefined);
  }
}

function clip(text: string): string {
  return text.length > EVIDENCE_BODY_CHARS
    ? `${text.slice(0, EVIDENCE_BODY_CHARS)}... (${text.length} characters)`
    : text;
}

/** The request of an exchange as evidence. */
export function recordedRequest(exchange: Exchange): RecordedRequest {
  return {
    method: exchange.method,
    url: exchange.url,
    headers: exchange.requestHeaders,
    ...(exchange.requestBody !== undefined ? { body: clip(exchange.requestBody) } : {}),
  };
}

/** The response of an exchange as evidence (redacted, clipped). */
export function recordedResponse(exchange: Exchange, redactor: Redactor): RecordedResponse {
  return {
    status: exchange.status,
    headers: exchange.headers,
    ...(exchange.text ? { body: clip(redactor.text(exchange.text)) } : {}),
  };
}

/** Evidence of a failure seen on an exchange. */
export function evidenceOf(
  exchange: Exchange | undefined,
  redactor: Redactor,
  message: string,
  expected?: string,
  actual?: string,
): Evidence {
  return {
    message: redactor.text(message),
    ...(expected !== undefined ? { expected: redactor.text(expected) } : {}),
    ...(actual !== undefined ? { actual: redactor.text(actual) } : {}),
    ...(exchange ? { request: recordedRequest(exchange), response: recordedResponse(exchange, redactor) } : {}),
  };
}
