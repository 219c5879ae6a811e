import type { Notification } from '../../spec/schemas/notifications.js';
import type { TenantState } from '../store/tenant-state.js';
import type { AttemptOutcome, DeliveryRequest } from './transport.js';

/** What watches one delivery: told of its outcome. */
export type AttemptWatch = (outcome: AttemptOutcome) => void;

/**
 * Told of each attempt of the engine as it goes out (the client checks, mock/client-checks/deliveries.ts, registered
 * by the composition root: the core does not know them); returns what to tell of its outcome, if anything.
 */
export type AttemptObserver = (
  tenant: TenantState,
  notification: Notification,
  request: DeliveryRequest,
) => AttemptWatch | undefined;
