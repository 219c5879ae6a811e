import type { ListSpec } from './listing.js';
import type { Attempt, Notification, Subscription } from './tenants.js';
import type { Asset, Family, Sku, World } from './world.js';

/**
 * JSON views of the records and the filterable/sortable fields of each list. The reference documents `id`,
 * `reference` and `name` of SKUs, and `CreatedAt`/`LastModifiedAt` as date field names (List and search endpoints);
 * every other field name is this server's choice.
 */
export function skuView(world: World, sku: Sku): Record<string, unknown> {
  return {
    id: sku.id,
    reference: sku.reference,
    name: sku.name,
    familyCode: sku.familyCode,
    unitCode: world.units.find((u) => u.id === sku.baseUnitId)?.code ?? null,
    weightKg: sku.weightKg,
    isActive: sku.isActive,
    CreatedAt: sku.createdAt,
    LastModifiedAt: sku.lastModifiedAt,
  };
}

export const SKU_LIST: ListSpec = {
  fields: {
    id: 'string',
    reference: 'string',
    name: 'string',
    familyCode: 'string',
    unitCode: 'string',
    weightKg: 'number',
    isActive: 'boolean',
    CreatedAt: 'date',
    LastModifiedAt: 'date',
  },
  filterable: true,
  defaultOrder: [{ field: 'name' }],
};

export function familyView(family: Family): Record<string, unknown> {
  return {
    id: family.id,
    code: family.code,
    label: family.label,
    CreatedAt: family.createdAt,
    LastModifiedAt: family.lastModifiedAt,
  };
}

export const FAMILY_LIST: ListSpec = {
  fields: { id: 'string', code: 'string', label: 'string', CreatedAt: 'date', LastModifiedAt: 'date' },
  filterable: true,
  defaultOrder: [{ field: 'label' }],
};

export function assetView(asset: Asset): Record<string, unknown> {
  return {
    id: asset.id,
    assetCode: asset.assetCode,
    title: asset.title,
    kind: asset.kind,
    parentId: asset.parentId,
    CreatedAt: asset.createdAt,
    LastModifiedAt: asset.lastModifiedAt,
  };
}

export const ASSET_LIST: ListSpec = {
  fields: {
    id: 'string',
    assetCode: 'string',
    title: 'string',
    kind: 'string',
    parentId: 'string',
    CreatedAt: 'date',
    LastModifiedAt: 'date',
  },
  filterable: true,
  defaultOrder: [{ field: 'title' }],
};

export function subscriptionView(subscription: Subscription): Record<string, unknown> {
  return {
    id: subscription.id,
    endpoint: subscription.endpoint,
    eventName: subscription.eventName,
    eventVersion: subscription.eventVersion,
    CreatedAt: subscription.createdAt,
  };
}

export const SUBSCRIPTION_LIST: ListSpec = {
  fields: { id: 'string', endpoint: 'string', eventName: 'string', eventVersion: 'number', CreatedAt: 'date' },
  filterable: false,
  defaultOrder: [{ field: 'eventName' }, { field: 'eventVersion' }],
};

export function notificationView(notification: Notification): Record<string, unknown> {
  return {
    id: notification.id,
    status: notification.status,
    event: notification.event,
    version: notification.version,
    subscriptionId: notification.subscriptionId,
    CreatedAt: notification.createdAt,
    LastModifiedAt: notification.lastModifiedAt,
  };
}

export const NOTIFICATION_LIST: ListSpec = {
  fields: {
    id: 'string',
    status: 'string',
    event: 'string',
    version: 'number',
    subscriptionId: 'string',
    CreatedAt: 'date',
    LastModifiedAt: 'date',
  },
  filterable: true,
  defaultOrder: [{ field: 'CreatedAt' }],
};

export function attemptView(attempt: Attempt): Record<string, unknown> {
  return {
    id: attempt.id,
    statusCode: attempt.statusCode,
    startedAt: attempt.startedAt,
    manual: attempt.manual,
    error: attempt.error,
  };
}

export const ATTEMPT_LIST: ListSpec = {
  fields: { id: 'string', statusCode: 'number', startedAt: 'date', manual: 'boolean' },
  filterable: false,
  defaultOrder: [{ field: 'startedAt' }],
};

export const EVENT_LIST: ListSpec = {
  fields: { eventName: 'string', eventVersion: 'number', summary: 'string' },
  filterable: false,
  defaultOrder: [{ field: 'eventName' }, { field: 'eventVersion' }],
};
