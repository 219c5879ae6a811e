import type { ContractValidator } from '../../spec/validate.js';
import type { TokenVerifier } from '../auth/tokens.js';
import type { Clock } from '../clock.js';
import type { MockOptions } from '../options.js';
import type { RateLimiter } from '../rate-limit.js';
import type { Store } from '../store/store.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { Persistence } from '../persistence/persistence.js';

/** The parts the HTTP shell wires together. */
export interface MockServices {
  readonly options: MockOptions;
  readonly store: Store;
  readonly verifier: TokenVerifier;
  readonly limiter: RateLimiter | null;
  readonly engine: WebhookEngine;
  readonly validator: ContractValidator;
  readonly clock: Clock;
  /** Durable state (`--state FILE`), or null for in-memory state. */
  readonly persistence: Persistence | null;
}
