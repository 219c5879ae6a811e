import { integer, option } from './kinds.js';

/**
 * The options bounding each tenant's own collections (docs/DESIGN.md, "Shared sandbox"), so that one tenant of a
 * shared mock cannot grow the process's memory without end whatever it sends; spread into `MOCK_OPTIONS`
 * (mock/options.ts), which documents the table. Inferred: the reference gives no such values ("Other limits appear
 * only as error codes"); the defaults leave any integration test suite far below them.
 */
export const TENANT_BOUND_OPTIONS = {
  /**
   * Most webhook subscriptions a tenant holds (docs/DESIGN.md, "Shared sandbox"); one more is refused with
   * COMMON.TENANT.PLAN_LIMIT_EXCEEDED. Inferred: every event fans out to each matching subscription, so this bounds the
   * notifications one write makes; 100 is ten times what an integration's test suite subscribes to.
   */
  maxSubscriptions: option({
    flag: '--max-subscriptions <n>',
    env: 'MAX_SUBSCRIPTIONS',
    help: 'webhook subscriptions per tenant (one more is refused with COMMON.TENANT.PLAN_LIMIT_EXCEEDED)',
    value: integer(1, 100_000),
    default: 100,
  }),
  /**
   * Most API keys a tenant holds, revoked ones included (the contract has no delete: a revoked key stays); at the bound
   * the oldest revoked key is forgotten to make room, and with none revoked a new key is refused with
   * COMMON.TENANT.PLAN_LIMIT_EXCEEDED.
   */
  maxApiKeys: option({
    flag: '--max-api-keys <n>',
    env: 'MAX_API_KEYS',
    help: 'API keys per tenant, revoked ones included (the oldest revoked is forgotten; none revoked: refused)',
    value: integer(1, 100_000),
    default: 100,
  }),
  /**
   * Most Pending notifications a tenant holds; beyond it the oldest Pending ones are ended as Failure, the reason on
   * the notification (mock/webhooks/pending-bound.ts). Inferred: as many as `--max-notifications` keeps, so a burst a
   * healthy receiver takes in seconds is delivered, not ended (at 1,000, the 3,000 notifications of bench webhooks'
   * 300 events to 10 subscriptions lost two thirds before their first attempt); a Pending notification waiting for a
   * slot is an entry of the schedule, about a kilobyte.
   */
  maxPendingNotifications: option({
    flag: '--max-pending-notifications <n>',
    env: 'MAX_PENDING_NOTIFICATIONS',
    help: 'Pending webhook notifications per tenant (beyond it the oldest are ended as Failure)',
    value: integer(1, 10_000_000),
    default: 10_000,
  }),
  /** Attempts kept in the record of one notification; beyond it (manual retries) the oldest is dropped from the record. */
  maxAttemptsPerNotification: option({
    flag: '--max-attempts-per-notification <n>',
    env: 'MAX_ATTEMPTS_PER_NOTIFICATION',
    help: 'delivery attempts kept per notification (the oldest dropped from the record)',
    value: integer(1, 10_000),
    default: 50,
  }),
  /** Entries of a tenant's request journal (`GET /__mock/requests`); the oldest dropped beyond it. */
  journalEntries: option({
    flag: '--journal-entries <n>',
    env: 'JOURNAL_ENTRIES',
    help: "entries of a tenant's request journal (oldest dropped)",
    value: integer(1, 1_000_000),
    default: 500,
  }),
  /**
   * Bytes of a tenant's request journal, KB, estimated as the list caches' are (mock/store/journal.ts); the oldest
   * entries dropped beyond it. At least 64: one entry holds at most ~17 KB (its url, headers and body cut).
   */
  journalKb: option({
    flag: '--journal-kb <n>',
    env: 'JOURNAL_KB',
    help: "bytes of a tenant's request journal, KB (oldest entries dropped)",
    value: integer(64, 1_048_576, 'KB'),
    default: 512,
  }),
};
