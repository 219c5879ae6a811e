import type { onResponseHookHandler, onSendHookHandler } from 'fastify';
import { answerHook } from './coverage/answer.js';
import { recorderOf } from './coverage/tenants.js';
import type { Persistence } from './persistence/persistence.js';
import type { Store } from './store/store.js';

/** Characters of a request body the journal keeps at most. */
const JOURNAL_BODY_CHARS = 4096;

/** The hooks that record every answer: what the composition root hangs on the HTTP shell (mock/http/app.ts). */
interface Recorders {
  readonly onSend: onSendHookHandler[];
  readonly onResponse: onResponseHookHandler[];
}

/**
 * Durability (an acknowledged write is on disk before its answer is sent: group commit, one fsync per batch), the
 * problem code of each error answer (and the tenant of refused credentials), then the tenant's journal and coverage.
 */
export function recorders(store: Store, jwtSecret: string, persistence: Persistence | null): Recorders {
  const onSend: onSendHookHandler[] = [];
  if (persistence) onSend.push(async () => persistence.sync());
  onSend.push(answerHook(jwtSecret, store));
  const journal: onResponseHookHandler = (req, reply, done) => {
    const tenant = req.tenantOrg ? store.peek(req.tenantOrg) : undefined;
    if (tenant) {
      tenant.journal.add({
        atMs: tenant.clock.now(),
        method: req.method,
        url: req.url,
        query: req.query,
        headers: req.headers,
        // Bounded: a large (even schema-valid) body is kept as a text excerpt, so 500 entries per tenant stay small.
        body:
          typeof req.body === 'string' && req.body.length > JOURNAL_BODY_CHARS
            ? req.body.slice(0, JOURNAL_BODY_CHARS)
            : (req.parsedBody ?? (typeof req.body === 'string' ? req.body : null)),
        status: reply.statusCode,
        code: req.answerCode,
        operationId: req.operationId ?? null,
        durationMs: Math.round(reply.elapsedTime),
      });
      if (req.operationId !== undefined) recorderOf(tenant).record(req.operationId, reply.statusCode, req.answerCode);
    }
    done();
  };
  return { onSend, onResponse: [journal] };
}
