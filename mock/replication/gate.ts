import type { FastifyReply, FastifyRequest } from 'fastify';
import { TEAM_KEY_HEADER } from '../../common/team-key.js';
import { adminKeyHolder, ADMIN_HEALTH_URL } from '../admin/guard.js';
import type { TokenVerifier } from '../auth/tokens.js';
import { authenticate } from '../http/credentials.js';
import type { AppDecorator } from '../http/decorator.js';
import { baseUrlOf, refOf } from '../http/request-ref.js';
import { rateLimited } from '../http/rate-limited.js';
import { send } from '../http/send.js';
import { plainProblem, type ProblemAnswer } from '../problems.js';
import type { Rate } from '../rate-limit.js';
import type { Store } from '../store/store.js';
import type { RedisLink } from './redis-commands.js';
import { SharedStateLostError, type Entry, type Replica } from './replica.js';
import { TenantBusyError } from './write-sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The tenant request under way on this replica (`--redis`), between the gate and the answer. */
    replicaEntry?: Entry;
    /** The client went away (`onRequestAbort`): an entry made after that is left at once. */
    replicaAborted?: boolean;
  }
}

/** What the gate needs of the mock. */
interface GateParts {
  readonly replica: Replica;
  readonly store: Store;
  readonly verifier: TokenVerifier;
  /** The shared rate limit of each tenant (null: off). */
  readonly rate: Rate | null;
  readonly adminKey: string | null;
  readonly warn: (message: string) => void;
  /** The Redis of the shared state: where it is and whether it is up. */
  readonly redis: Pick<RedisLink, 'address' | 'reachable'>;
}

/** Reading requests that use POST (list searches) take no write lock. */
const SEARCH = /\/search(?:\?|$)/;

/** Whether a request may write tenant state (it then takes the tenant's write lock). */
function writes(req: FastifyRequest): boolean {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return false;
  return !SEARCH.test(req.url);
}

/**
 * 503 when the shared state cannot be read or written: never an answer from stale memory (inferred; `Retry-After: 1`
 * as Redis is retried in the background every 0.2-2 s).
 */
function unavailable(req: FastifyRequest, detail: string): ProblemAnswer {
  return { ...plainProblem(503, detail, refOf(req)), headers: { 'retry-after': '1' } };
}

/** Socket-level failures of the Redis client (ioredis words them; the cause is the same: no Redis to talk to). */
const CONNECTION_FAILURE =
  /Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EHOSTUNREACH|MaxRetriesPerRequest/;

/**
 * What a 503 tells the client of why the shared state failed it. A Redis that is down is named by its address alone:
 * the client library's wording says nothing actionable to an API client, and the URL may carry a password. The
 * mock's own refusals (a busy tenant, a Redis that lost its data) keep their words.
 */
function failureOf(error: unknown, redis: GateParts['redis']): string {
  if (error instanceof TenantBusyError || error instanceof SharedStateLostError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  if (!redis.reachable() || CONNECTION_FAILURE.test(message)) return `Redis at ${redis.address} is unreachable`;
  return message;
}

/**
 * The HTTP side of a replicated mock, as hooks around the faithful shell (like mock/decisions and mock/faults): before
 * a request of a tenant, the tenant is brought up to date from Redis (writing requests first take its lock, API
 * requests a token of its shared bucket); before the answer leaves, what the request wrote is appended. A request
 * whose credentials name no tenant passes untouched: the shell answers it (401) as always.
 */
export function replicationGate(parts: GateParts): AppDecorator {
  const { replica, store, verifier } = parts;
  const holdsAdminKey = parts.adminKey === null ? () => true : adminKeyHolder(parts.adminKey);

  /** The tenant a request's credentials name (a bearer token is verified; an API key is looked up), if any. */
  const orgOf = async (req: FastifyRequest): Promise<string | undefined> => {
    const authorization = req.headers.authorization;
    const key = req.headers['x-api-key'];
    if (typeof authorization === 'string') {
      const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
      const verified = m?.[1] ? await verifier.verify(m[1], Date.now()) : undefined;
      if (verified?.ok) return verified.principal.org;
    }
    return typeof key === 'string' ? replica.apiKeyOrg(key) : undefined;
  };

  const onRequest = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const path = req.url;
    const api = path.startsWith('/v1/');
    // Admin calls of a tenant: with the admin key, a team key, or the tenant's own bearer token (the admin API's
    // access check, mock/admin/guard.ts, judges which of them reach the tenant).
    const admin =
      path.startsWith('/__mock/') &&
      !path.startsWith(ADMIN_HEALTH_URL) &&
      (holdsAdminKey(req) || req.headers[TEAM_KEY_HEADER] !== undefined || req.headers.authorization !== undefined);
    if (!api && !admin) return undefined;
    let entry: Entry;
    try {
      const org = await orgOf(req);
      if (org === undefined) return undefined;
      entry = await replica.enter(org, { write: writes(req), rate: api ? parts.rate : null });
    } catch (error) {
      return send(reply, unavailable(req, `The shared state is unavailable: ${failureOf(error, parts.redis)}.`));
    }
    req.replicaEntry = entry;
    if (req.replicaAborted || req.raw.destroyed) {
      // The client left while the tenant was brought up to date: Fastify runs no later hook for this request.
      await replica.leave(entry).catch(() => undefined);
      return reply;
    }
    if (entry.taken && !entry.taken.ok) {
      // Limits come after authentication (401 before 429): the credential is checked on the state just read.
      const auth = await authenticate(req.headers, verifier, store, Date.now());
      if (auth.ok) return send(reply, rateLimited(baseUrlOf(req), refOf(req), entry.taken.retryAfterMs));
    }
    return undefined;
  };

  const onSend = async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    try {
      await replica.flushGlobalReset();
      if (req.replicaEntry) await replica.leave(req.replicaEntry);
      return payload;
    } catch (error) {
      // The write did not reach the shared log: it is not acknowledged (this replica dropped its copy of the tenant).
      parts.warn(`answering 503: ${(error as Error).message}`);
      const answer = unavailable(
        req,
        `The write could not be stored in the shared state: ${failureOf(error, parts.redis)}.`,
      );
      reply.code(503);
      reply.header('retry-after', '1');
      reply.type('application/problem+json; charset=utf-8');
      return JSON.stringify(answer.body);
    }
  };

  const onRequestAbort = async (req: FastifyRequest): Promise<void> => {
    req.replicaAborted = true;
    if (req.replicaEntry && !req.replicaEntry.left) await replica.leave(req.replicaEntry).catch(() => undefined);
  };

  const onResponse = async (req: FastifyRequest): Promise<void> => {
    // A request that ended without an answer (the client went away) still releases the tenant's lock.
    if (req.replicaEntry && !req.replicaEntry.left) await replica.leave(req.replicaEntry).catch(() => undefined);
  };

  return { onRequest: [onRequest], onSend: [onSend], onResponse: [onResponse], onRequestAbort: [onRequestAbort] };
}
