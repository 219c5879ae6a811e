import type { WebhookEngine } from '../webhooks/engine.js';
import { accessHandlers } from './access.js';
import { adminHandlers } from './admin.js';
import { errorHandlers } from './errors.js';
import { itemHandlers } from './items.js';
import { maintenanceHandlers } from './maintenance.js';
import { notificationHandlers } from './notifications.js';
import { planningHandlers } from './planning.js';
import type { PlanLimits } from './plan-limits.js';
import type { Handlers } from './types.js';

/** The behaviour of every operation of the contract, by operationId (the type makes a missing one a compile error). */
export function allHandlers(engine: WebhookEngine, limits: PlanLimits): Handlers {
  return {
    ...accessHandlers(limits),
    ...adminHandlers,
    ...errorHandlers,
    ...itemHandlers,
    ...maintenanceHandlers,
    ...planningHandlers,
    ...notificationHandlers(engine, limits),
  };
}
