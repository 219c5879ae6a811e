import type { onResponseHookHandler, onSendHookHandler } from 'fastify';
import type { RetryDelay } from '../spec/decisions/index.js';
import { MOCK_RETRY_DELAY, noteAnswer, observeRequest, orgOfUnattributed } from './client-checks/observe.js';
import { anyRunStarted, runOf } from './client-checks/tenants.js';
import type { Clock } from './clock.js';
import { answerCodeNoter } from './coverage/answer.js';
import { signedTokenOrgs } from './coverage/refused-caller.js';
import { recorderOf } from './coverage/tenants.js';
import type { MockOptions } from './options.js';
import type { Persistence } from './persistence/persistence.js';
import { durableAnswer } from './persistence/durable-answer.js';
import type { JournalLimits } from './store/journal.js';
import type { Store } from './store/store.js';

/** The options the recorders read. */
type RecorderOptions = Pick<MockOptions, 'jwtSecret' | 'journalEntries' | 'journalKb'>;

/** The hooks that record every answer: what the composition root hangs on the HTTP shell (mock/http/app.ts). */
interface Recorders {
  readonly onSend: onSendHookHandler[];
  readonly onResponse: onResponseHookHandler[];
}

/** What the client checks need beside the store: the real clock, and the header a 429 tells its delay in. */
interface ClientCheckParts {
  readonly clock: Clock;
  /** `--decisions` may move the delay to another header and unit (mock/decisions/retry-delay.ts). */
  readonly retryDelay?: RetryDelay | undefined;
}

/**
 * Durability (an acknowledged write is on disk before its answer is sent: group commit, one fsync per batch), the
 * problem code of each error answer (and the tenant of refused credentials), then the tenant's journal and coverage,
 * and the requests client checks judge (mock/client-checks/: a tenant without a run costs one lookup).
 */
export function recorders(
  store: Store,
  options: RecorderOptions,
  persistence: Persistence | null,
  checks: ClientCheckParts,
): Recorders {
  const onSend: onSendHookHandler[] = [];
  if (persistence) onSend.push(durableAnswer(persistence, (m) => process.stderr.write(`opsapi mock: ${m}\n`)));
  // The tenants of the mock's own signed tokens as refused requests carry them, remembered (bounded) for both the
  // coverage of 401s and the client checks' refused requests: one HMAC per token, not one per refusal.
  const tokenOrgs = signedTokenOrgs(Buffer.from(options.jwtSecret, 'utf8'));
  const noteCode = answerCodeNoter(tokenOrgs, store);
  const runOfRequest = (org: string | undefined) => {
    const tenant = org === undefined ? undefined : store.peek(org);
    return tenant ? runOf(tenant) : undefined;
  };
  // One hook for both (each hook Fastify runs costs every request): the problem code, then, for the requests client
  // checks judge only, a list's totalPages and a new subscription's id, read from the answer as it is sent.
  onSend.push((req, reply, payload, done) => {
    noteCode(req, reply.statusCode, payload);
    if (req.operationId !== undefined && runOfRequest(req.tenantOrg)) noteAnswer(req, reply.statusCode, payload);
    done(null, payload);
  });
  const retryDelay = checks.retryDelay ?? MOCK_RETRY_DELAY;
  const limits: JournalLimits = { entries: options.journalEntries, bytes: options.journalKb * 1024 };
  const journal: onResponseHookHandler = (req, reply, done) => {
    const tenant = req.tenantOrg ? store.peek(req.tenantOrg) : undefined;
    if (tenant) {
      // Every request of the tenant, never a sample; the journal keeps bounded copies (mock/store/journal.ts).
      tenant.journal.add(
        {
          atMs: tenant.clock.now(),
          method: req.method,
          url: req.url,
          headers: req.headers,
          rawBody: req.body,
          parsedBody: req.parsedBody,
          status: reply.statusCode,
          code: req.answerCode,
          operationId: req.operationId ?? null,
          durationMs: Math.round(reply.elapsedTime),
          injected: req.clientCheckInjected === true,
        },
        limits,
      );
      // An injected 429 is the checks' perturbation, not the API's answer: not counted in coverage.
      if (req.operationId !== undefined && !req.clientCheckInjected)
        recorderOf(tenant).record(req.operationId, reply.statusCode, req.answerCode);
      // Judged: the tenant's `/v1` requests (the admin API never names the tenant here).
      const run = runOf(tenant);
      if (run && req.url.startsWith('/v1')) observeRequest(run, req, reply, checks.clock.now(), retryDelay);
    } else if (reply.statusCode >= 400 && req.url.startsWith('/v1') && anyRunStarted()) {
      // Refused before (or by) authentication, the request names no tenant here, yet client checks judge it; a mock
      // where checks never ran does not verify the refused credentials a second time (./coverage/answer.ts did once).
      const run = runOfRequest(orgOfUnattributed(req.headers, tokenOrgs, (key) => store.apiKeyOrg(key)));
      if (run) observeRequest(run, req, reply, checks.clock.now(), retryDelay);
    }
    done();
  };
  return { onSend, onResponse: [journal] };
}
