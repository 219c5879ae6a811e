import type { ContractValidator } from '../../spec/validate.js';
import type { TokenVerifier } from '../auth/tokens.js';
import type { Clock } from '../clock.js';
import type { RateLimiter } from '../rate-limit.js';
import type { Store } from '../store/store.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { Persistence } from '../persistence/persistence.js';
import type { PageTexts } from '../lists/page-texts.js';
import type { ConnectionLimits } from './connection-limits.js';

/** What `/__mock/stats` tells of a replicated mock. */
export interface ReplicationStats {
  readonly replica: string;
  readonly redis: string;
  readonly due: number;
  readonly claimed: number;
}

/**
 * The options the shell reads. The composition root passes the mock's whole options (mock/options.ts declares them,
 * with their defaults and ranges); the shell names only what it uses, so it depends on no layer above it.
 */
export interface ShellOptions extends ConnectionLimits {
  /** Added before every operation's answer (`--latency`). */
  readonly latency: { readonly min: number; readonly max: number } | null;
  readonly logRequests: boolean;
  readonly bodyLimit: number;
  /** The admin API's key (`--admin-key`), or null for an open admin API. */
  readonly adminKey: string | null;
  /** Whether state is durable (`--state FILE`), as `/__mock/tenant` tells. */
  readonly stateFile: string | null;
  readonly jwtSecret: string;
}

/** The parts the HTTP shell wires together. */
export interface MockServices {
  readonly options: ShellOptions;
  readonly store: Store;
  readonly verifier: TokenVerifier;
  readonly limiter: RateLimiter | null;
  readonly engine: WebhookEngine;
  readonly validator: ContractValidator;
  readonly clock: Clock;
  /** A replicated mock's figures (`--redis`), or null for one process. */
  readonly replication?: { stats(): Promise<ReplicationStats> } | null;
  /** Durable state (`--state FILE`), or null for in-memory state. */
  readonly persistence: Persistence | null;
  /** Serialized list pages kept for identical requests (./page-texts.ts); null where handlers are decorated. */
  readonly pageTexts: PageTexts | null;
}
