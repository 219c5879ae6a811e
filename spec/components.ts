import type { TSchema } from '@sinclair/typebox';
import { Type } from '@sinclair/typebox';
import { ListBody, pageOf } from './schemas/common.js';
import { Problem } from './schemas/problem.js';
import { ErrorCatalogEntry, ErrorParameter } from './schemas/errors.js';
import { ApiKey, CreateApiKeyBody } from './schemas/access.js';
import {
  CreateSubscriptionBody,
  DeliveryAttempt,
  EventDescriptor,
  EventVersion,
  EventVersionList,
  Notification,
  NotificationStatus,
  Subscription,
  WebhookPayload,
} from './schemas/notifications.js';
import { Family, InspectionDefinition, InspectionUpdateBody, SkuListItem, StockUpdateBody } from './schemas/items.js';
import { Asset } from './schemas/maintenance.js';
import { Tenant } from './schemas/admin.js';
import { PurchaseOrderLine, PurchaseOrderLineUpdateBody } from './schemas/planning.js';
import { ERROR_CODES } from './errors/index.js';
import { documented } from './provenance.js';

/** A page envelope component whose items point at the item component. */
function pageComponent(itemName: string): TSchema {
  return pageOf(Type.Unsafe({ $ref: `#/components/schemas/${itemName}` }), itemName);
}

/** Every named schema of the contract, as `components.schemas`. Names are stable: the mock and the runner use them. */
export const SCHEMAS: Readonly<Record<string, TSchema>> = {
  Problem,
  ErrorCode: Type.Unsafe<string>({
    type: 'string',
    enum: [...ERROR_CODES],
    description:
      'Every code of the error catalog (Errors / Error code catalog): 478 codes of 74 prefixes. `Problem.code` lists these and also accepts an unlisted code of the same shape.',
    ...documented('errors.catalog.format'),
  }),
  ErrorParameter,
  ErrorCatalogEntry,
  CreateApiKeyBody,
  ApiKey,
  CreateSubscriptionBody,
  Subscription,
  SubscriptionPage: pageComponent('Subscription'),
  NotificationStatus,
  WebhookPayload,
  Notification,
  NotificationPage: pageComponent('Notification'),
  DeliveryAttempt,
  DeliveryAttemptPage: pageComponent('DeliveryAttempt'),
  EventDescriptor,
  EventDescriptorPage: pageComponent('EventDescriptor'),
  EventVersion,
  EventVersionList,
  StockUpdateBody,
  InspectionDefinition,
  InspectionUpdateBody,
  SkuListItem,
  SkuListItemPage: pageComponent('SkuListItem'),
  ListBody,
  Family,
  FamilyPage: pageComponent('Family'),
  Asset,
  AssetPage: pageComponent('Asset'),
  Tenant,
  PurchaseOrderLine,
  PurchaseOrderLineUpdateBody,
};
