import type { OperationDef } from './types.js';
import { createApiKey } from './access.js';
import {
  createWebhookSubscription,
  deleteWebhookSubscription,
  getWebhookNotification,
  listEventVersions,
  listEvents,
  listWebhookNotificationAttempts,
  listWebhookNotifications,
  listWebhookSubscriptions,
  retryWebhookNotification,
} from './notifications.js';
import { deleteFamily, listSkus, searchFamilies, updateSkuInspection, updateSkuStock } from './items.js';
import { listAssets } from './maintenance.js';
import { getTenantSelf } from './admin.js';
import { updatePurchaseOrderLine } from './planning.js';
import { getError } from './errors.js';

/** Every operation of the contract: the 13 the reference describes and the 6 named only in its error messages. */
export const OPERATIONS: readonly OperationDef[] = [
  createApiKey,
  listWebhookSubscriptions,
  createWebhookSubscription,
  deleteWebhookSubscription,
  listWebhookNotifications,
  getWebhookNotification,
  listWebhookNotificationAttempts,
  retryWebhookNotification,
  listEvents,
  listEventVersions,
  updateSkuStock,
  updateSkuInspection,
  getError,
  listSkus,
  searchFamilies,
  deleteFamily,
  listAssets,
  getTenantSelf,
  updatePurchaseOrderLine,
];

const BY_ID = new Map(OPERATIONS.map((op) => [op.operationId, op]));

/** The operation with this operationId; throws for an unknown id (a programming error). */
export function operation(operationId: string): OperationDef {
  const op = BY_ID.get(operationId);
  if (!op) throw new Error(`unknown operation ${operationId}`);
  return op;
}

export type { OperationDef, ListSpec, ErrorResponse, SuccessResponse, PathParam, Tag } from './types.js';
