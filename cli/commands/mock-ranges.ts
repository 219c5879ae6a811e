/**
 * The bounds of the numeric options of `opsapi mock`, one table for the flags (mock.ts) and for the Testing API's
 * `startMock` options (testing/options.ts), so a number one accepts the other accepts too. Inferred: the reference
 * has no such settings; the bounds only keep a mock usable (a port is 16 bits, a seed a 31-bit integer).
 */
export const MOCK_INTEGER_RANGES = {
  port: [0, 65535],
  seed: [0, 2 ** 31 - 1],
  skus: [1, 1_000_000],
  maxTenants: [1, 1_000_000],
  /** Megabytes (at most 1 TB). */
  cacheMb: [1, 1_048_576],
  /** Milliseconds. */
  deliveryTimeout: [1, 600_000],
  deliveryConcurrency: [1, 10_000],
  maxNotifications: [10, 10_000_000],
  /** Bytes. */
  bodyLimit: [1024, 100 * 1024 * 1024],
} as const satisfies Record<string, readonly [min: number, max: number]>;

export type MockIntegerOption = keyof typeof MOCK_INTEGER_RANGES;
