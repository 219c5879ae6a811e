import type { Handler } from '../http/context.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import { accessHandlers } from './access.js';
import { adminHandlers } from './admin.js';
import { errorHandlers } from './errors.js';
import { itemHandlers } from './items.js';
import { maintenanceHandlers } from './maintenance.js';
import { notificationHandlers } from './notifications.js';
import { planningHandlers } from './planning.js';

/** The behaviour of every operation of the contract, by operationId. */
export function allHandlers(engine: WebhookEngine): Record<string, Handler> {
  return {
    ...accessHandlers,
    ...adminHandlers,
    ...errorHandlers,
    ...itemHandlers,
    ...maintenanceHandlers,
    ...planningHandlers,
    ...notificationHandlers(engine),
  };
}
