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

/**
 * Every operation of the contract by operationId, in document order: the 13 the reference describes and the 6
 * named only in its error messages. The keys are the one list `OperationId` is derived from.
 */
const BY_OPERATION_ID = {
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
} as const satisfies Readonly<Record<string, OperationDef>>;

/** The operationId of an operation of the contract (a handler table keyed by it misses none). */
export type OperationId = keyof typeof BY_OPERATION_ID;

// The key and the definition's own operationId are written apart; a mismatch is a programming error caught at load.
for (const [key, op] of Object.entries(BY_OPERATION_ID)) {
  if (op.operationId !== key) throw new Error(`operation ${key} declares operationId ${op.operationId}`);
}

/** Every operation of the contract, in document order. */
export const OPERATIONS: readonly OperationDef[] = Object.values(BY_OPERATION_ID);

/** Every permission the contract's operations require, sorted: the one list mock presets and the runner read. */
export const ALL_PERMISSIONS: readonly string[] = [
  ...new Set(OPERATIONS.map((op) => op.permission.name).filter((p): p is string => p !== null)),
].sort();

/**
 * The names among `permissions` that no operation of the contract requires: a token holding them is still minted
 * (a test may want one), but a caller is told, since a misspelt permission silently grants nothing.
 */
export function unusedPermissions(permissions: readonly string[]): string[] {
  return permissions.filter((p) => !ALL_PERMISSIONS.includes(p));
}

/** Whether a string is an operationId of the contract (an own key: `toString` is not one). */
function isOperationId(s: string): s is OperationId {
  return Object.hasOwn(BY_OPERATION_ID, s);
}

/** The operation with this operationId; throws for an unknown id (a programming error). */
export function operation(operationId: string): OperationDef {
  if (!isOperationId(operationId)) throw new Error(`unknown operation ${operationId}`);
  return BY_OPERATION_ID[operationId];
}

export type { OperationDef } from './types.js';
