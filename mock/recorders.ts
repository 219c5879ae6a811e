import type { onResponseHookHandler, onSendHookHandler } from 'fastify';
import { answerHook } from './coverage/answer.js';
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

/**
 * Durability (an acknowledged write is on disk before its answer is sent: group commit, one fsync per batch), the
 * problem code of each error answer (and the tenant of refused credentials), then the tenant's journal and coverage.
 */
export function recorders(store: Store, options: RecorderOptions, persistence: Persistence | null): Recorders {
  const onSend: onSendHookHandler[] = [];
  if (persistence) onSend.push(durableAnswer(persistence, (m) => process.stderr.write(`opsapi mock: ${m}\n`)));
  onSend.push(answerHook(options.jwtSecret, store));
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
        },
        limits,
      );
      if (req.operationId !== undefined) recorderOf(tenant).record(req.operationId, reply.statusCode, req.answerCode);
    }
    done();
  };
  return { onSend, onResponse: [journal] };
}
