import type { Probe } from './probe.js';
import { CATALOG_PROBES } from './probes-catalog.js';
import { CREDENTIAL_PROBES } from './probes-credentials.js';
import { FILTER_PROBES } from './probes-filters.js';
import { LIST_PROBES } from './probes-lists.js';
import { BURST, FORCED_429 } from './probes-rate-limit.js';
import { WEBHOOK_PROBES } from './probes-webhooks.js';
import { WRITE_PROBES } from './probes-writes.js';

/**
 * Every probe, in the order they run: credentials and the catalog, then the writes and the webhook scenario (their
 * subscriptions and notifications give the lists items to read until the clean-up), then the lists, read once and
 * shared by the filter probes. The burst past the rate limit runs last of all, after the clean-up, so it slows
 * nothing else (learn.ts).
 */
export const PROBES: readonly Probe[] = [
  ...CREDENTIAL_PROBES,
  ...CATALOG_PROBES,
  FORCED_429,
  ...WRITE_PROBES,
  ...WEBHOOK_PROBES,
  ...LIST_PROBES,
  ...FILTER_PROBES,
];

/** The probe that runs after the clean-up. */
export const LAST_PROBE: Probe = BURST;
