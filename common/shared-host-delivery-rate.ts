/**
 * The pace of a tenant's webhook delivery attempts on a mock others reach, when `--delivery-rate-per-tenant` is not
 * given (inferred; why this value: mock/options/delivery-shares.ts). Here, not in mock/, so that the bench's
 * noisy-neighbour scenario, whose mock listens on loopback (no pace by default), runs at the very pace a shared mock
 * takes, from one definition.
 */
export const SHARED_HOST_DELIVERY_RATE = { limit: 200, windowMs: 1000 } as const;
