import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RetryDelay } from '../../spec/decisions/index.js';
import { findEventVersion } from '../../spec/events/catalog.js';
import { operation } from '../../spec/operations/index.js';
import type { SignedTokenOrgs } from '../coverage/refused-caller.js';
import type { ClientCheckRun } from './run.js';
import type { AnsweredBy, ListParameters } from './trace.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Answered with a 429 the client checks injected (mock/http/steps/client-checks.ts): journaled as such, not counted in coverage. */
    clientCheckInjected?: boolean;
    /** What the client checks read of the answer's body while it was sent: a list's totalPages, a new subscription's id. */
    clientCheckAnswer?: { totalPages?: number; id?: string };
  }
}

/** The header a 429 of the mock tells its delay in, and its unit: `Retry-After` in seconds unless `--decisions` adopted another. */
export const MOCK_RETRY_DELAY: RetryDelay = { header: 'Retry-After', unit: 'seconds' };

/** A delay as a header value told it, in ms from `now`; undefined when the value is not one of the unit. */
function delayMs(value: string, unit: RetryDelay['unit'], now: number): number | undefined {
  const n = Number(value.trim());
  switch (unit) {
    case 'seconds':
      return Number.isFinite(n) && n >= 0 ? n * 1000 : undefined;
    case 'milliseconds':
      return Number.isFinite(n) && n >= 0 ? n : undefined;
    case 'epoch-seconds':
      return Number.isFinite(n) ? Math.max(0, n * 1000 - now) : undefined;
    case 'http-date': {
      const at = Date.parse(value);
      return Number.isNaN(at) ? undefined : Math.max(0, at - now);
    }
  }
}

/** The delay a 429 of the mock indicated, in the header the mock told it in (Errors / Status and code pairs, 429). */
function retryAfterOf(
  reply: FastifyReply,
  told: RetryDelay,
  now: number,
): { header: string; delayMs: number } | undefined {
  const raw = reply.getHeader(told.header.toLowerCase());
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const ms = delayMs(String(value), told.unit, now);
  return ms === undefined ? undefined : { header: told.header, delayMs: ms };
}

/** The JSON body of a request: parsed when it passed validation, else read leniently (a refused body is judged too). */
function bodyOf(req: FastifyRequest): Record<string, unknown> | undefined {
  let body = req.parsedBody;
  if (body === undefined && typeof req.body === 'string')
    try {
      body = JSON.parse(req.body);
    } catch {
      return undefined;
    }
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : undefined;
}

const LIST_PARAMETERS = ['pageNumber', 'pageSize', 'filterBy', 'sortBy'] as const;

/** The list parameters of a list or search request as sent (from its query or its body). */
function listParameters(source: Record<string, unknown> | undefined): ListParameters {
  const out: ListParameters = {};
  for (const name of LIST_PARAMETERS) {
    const raw = source?.[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value !== undefined && value !== null) out[name] = String(value);
  }
  return out;
}

/**
 * The body a request carried, as the trace keeps it (its size and digest): the text the JSON parser kept, or, for a
 * body of another media type the mock did not read, its declared length standing for it.
 */
function bodyText(req: FastifyRequest): string | undefined {
  if (typeof req.body === 'string') return req.body;
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > 0 || req.headers['transfer-encoding'] !== undefined) return `<unread body of ${length} bytes>`;
  return undefined;
}

const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * The org of a `/v1` request the request path never attributed (refused before the credentials step: a body of
 * another media type, 415; or refused by it: a token in another shape than `Bearer <token>`, 401), from a token the
 * mock signed anywhere in its Authorization header, else from its API key: the client's request all the same, which
 * the checks judge (client.auth-bearer, client.body-content-type).
 */
export function orgOfUnattributed(
  headers: FastifyRequest['headers'],
  tokenOrgs: SignedTokenOrgs,
  apiKeyOrg: (key: string) => string | undefined,
): string | undefined {
  const { authorization, 'x-api-key': apiKey } = headers;
  const token =
    typeof authorization === 'string'
      ? authorization
          .trim()
          .split(/\s+/)
          .find((w) => JWT.test(w))
      : undefined;
  const org = token === undefined ? undefined : tokenOrgs(token);
  return org ?? (typeof apiKey === 'string' ? apiKeyOrg(apiKey) : undefined);
}

const is2xx = (status: number) => status >= 200 && status < 300;

/**
 * While an answer of a judged request is sent: notes what the checks read of its body (a list's `totalPages`, the id
 * of a subscription made), without parsing a list page (its envelope's `totalPages` comes after its items).
 */
export function noteAnswer(req: FastifyRequest, status: number, payload: unknown): void {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload : undefined;
  if (text === undefined || req.operationId === undefined || !is2xx(status)) return;
  if (operation(req.operationId).list) {
    const at = text.lastIndexOf('"totalPages":');
    if (at === -1) return;
    const digits = /^\s*(\d+)/.exec(text.slice(at + 13, at + 40).toString());
    if (digits?.[1]) req.clientCheckAnswer = { totalPages: Number(digits[1]) };
  } else if (req.operationId === 'createWebhookSubscription') {
    try {
      const id: unknown = (JSON.parse(text.toString()) as { id?: unknown }).id;
      if (typeof id === 'string') req.clientCheckAnswer = { id };
    } catch {
      // Not JSON: no id to note (a planted fault may answer anything).
    }
  }
}

/**
 * Records one `/v1` request of a tenant whose checks run, and its answer (docs/DESIGN.md, "Client certification"):
 * the URL as received (a raw `&&` in `filterBy` splits it, which only the raw URL shows), the shape of its
 * credentials, its body, the answer's status and a 429's delay, a list's parameters and `totalPages`, and a
 * subscription it asked for.
 */
export function observeRequest(
  run: ClientCheckRun,
  req: FastifyRequest,
  reply: FastifyReply,
  now: number,
  retryDelay: RetryDelay,
): void {
  const url = req.raw.url ?? req.url;
  const q = url.indexOf('?');
  const op = req.operationId === undefined ? undefined : operation(req.operationId);
  const status = reply.statusCode;
  const answeredBy: AnsweredBy = req.clientCheckInjected
    ? 'injected'
    : reply.getHeader('preference-applied') !== undefined
      ? 'prefer'
      : 'api';
  const authorization = req.headers.authorization;
  const contentType = req.headers['content-type'];
  const body = bodyText(req);
  const retryAfter = status === 429 ? retryAfterOf(reply, retryDelay, now) : undefined;
  const list = op?.list
    ? {
        ...listParameters(op.list.parametersIn === 'query' ? (req.query as Record<string, unknown>) : bodyOf(req)),
        ...(req.clientCheckAnswer?.totalPages !== undefined ? { totalPages: req.clientCheckAnswer.totalPages } : {}),
      }
    : undefined;
  const at = now - Math.round(reply.elapsedTime);
  const observed = run.recorder.request({
    at,
    answeredAt: now,
    method: req.method,
    path: q === -1 ? url : url.slice(0, q),
    rawQuery: q === -1 ? '' : url.slice(q + 1),
    ...(req.operationId !== undefined ? { operationId: req.operationId } : {}),
    ...(authorization !== undefined ? { authorization } : {}),
    apiKey: req.headers['x-api-key'] !== undefined,
    ...(contentType !== undefined ? { contentType } : {}),
    ...(body !== undefined ? { body } : {}),
    status,
    ...(retryAfter ? { retryAfter } : {}),
    answeredBy,
    ...(list ? { list } : {}),
  });
  if (req.operationId === 'createWebhookSubscription' && answeredBy === 'api') {
    const asked = bodyOf(req);
    const eventName = typeof asked?.eventName === 'string' ? asked.eventName : '';
    const eventVersion = Number(asked?.eventVersion);
    run.recorder.subscription({
      at,
      requestSeq: observed.seq,
      eventName,
      eventVersion,
      status,
      offered: Number.isInteger(eventVersion) && findEventVersion(eventName, eventVersion) !== undefined,
      ...(req.clientCheckAnswer?.id !== undefined ? { id: req.clientCheckAnswer.id } : {}),
    });
  }
}
