import type { TokenCacheFigures, TokenVerifier } from './auth/tokens.js';
import type { CacheFigures } from './lists/cache-budget.js';
import type { PageTexts } from './lists/page-texts.js';
import type { Store } from './store/store.js';
import type { WebhookEngine } from './webhooks/engine.js';

/** Figures of the mock as a whole (the in-process part of `GET /__mock/stats`). */
export interface MockStats {
  /** Tenants in memory. */
  readonly tenants: number;
  /** Notifications stored over all tenants in memory. */
  readonly notifications: number;
  /** Notifications with a webhook attempt still scheduled, over all tenants. */
  readonly pendingDeliveries: number;
  /** The list engine's caches (`--cache-mb`), as `GET /__mock/stats` answers `listCaches`. */
  readonly listCaches: CacheFigures;
  /** Kept list pages, as `GET /__mock/stats` answers `listPages`; null when the mock keeps none (faults, decisions). */
  readonly listPages: CacheFigures | null;
  /** The cache of verified access tokens, bounded in tokens and in their characters. */
  readonly verifiedTokens: TokenCacheFigures;
}

/** The figures of a mock in this process: what `control.stats()` gives and `GET /__mock/stats` starts from. */
export function mockStats(services: {
  readonly store: Store;
  readonly engine: WebhookEngine;
  readonly pageTexts: PageTexts | null;
  readonly verifier: TokenVerifier;
}): MockStats {
  const { store, engine, pageTexts, verifier } = services;
  let notifications = 0;
  for (const org of store.orgs()) notifications += store.peek(org)?.notificationCount ?? 0;
  return {
    tenants: store.orgs().length,
    notifications,
    pendingDeliveries: engine.pendingCount(),
    listCaches: store.caches.figures(),
    listPages: pageTexts?.figures() ?? null,
    verifiedTokens: verifier.cacheFigures(),
  };
}
