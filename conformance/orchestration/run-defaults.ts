/**
 * The defaults of a run's bounds, written once: `openRun` applies them to what a caller leaves out, and the CLI's
 * flags show and pass the same values (`cli/target-options.ts`).
 */
export const RUN_DEFAULTS = {
  /** Requests in flight at once. */
  concurrency: 8,
  /** Timeout of each request, ms. */
  timeoutMs: 10_000,
  /** How long the webhook checks wait for a delivery, and for a notification to reach a final state, ms. */
  deliveryTimeoutMs: 10_000,
  /** Most pages a page walk reads. */
  maxPages: 50,
  /** Bounds of the rate-limit probe: requests and seconds. */
  rateLimitMaxRequests: 3000,
  rateLimitMaxSeconds: 20,
} as const;
