import { createHmac } from 'node:crypto';
import { type DataFile, dataFileOf, generateWorld, type World } from './world.js';

/** Records kept per organisation besides its generated world (keys, subscriptions, notifications). */
export interface ApiKeyRecord {
  id: string;
  key: string;
  name: string;
  isActive: boolean;
}

export interface Subscription {
  id: string;
  endpoint: string;
  eventName: string;
  eventVersion: number;
  createdAt: string;
}

export interface Attempt {
  id: string;
  /** HTTP status of the receiver's answer, null when none came (refused, timed out, aborted). */
  statusCode: number | null;
  startedAt: string;
  manual: boolean;
  error: string | null;
}

export type NotificationStatus = 'Pending' | 'Success' | 'Failure';

export interface Notification {
  id: string;
  eventId: string;
  subscriptionId: string;
  endpoint: string;
  event: string;
  version: number;
  status: NotificationStatus;
  createdAt: string;
  lastModifiedAt: string;
  /** The exact bytes sent on every attempt, and their signature (Authentication 5). */
  body: Buffer;
  signature: string;
  attempts: Attempt[];
  /** Automatic attempts not yet made. */
  automaticLeft: number;
  timer: NodeJS.Timeout | undefined;
}

export interface Tenant {
  org: string;
  world: World;
  data: DataFile;
  webhookSecret: string;
  apiKeys: Map<string, ApiKeyRecord>;
  subscriptions: Map<string, Subscription>;
  /** In creation order, oldest first. */
  notifications: Map<string, Notification>;
  /** Fixed rate-limit window (Limits: request rate per tenant). */
  window: { startedAt: number; count: number };
  sequence: number;
}

/** Per-tenant bounds (Limits: not shown; these are this server's choices). */
export const MAX_API_KEYS = 100;
export const MAX_SUBSCRIPTIONS = 200;
export const MAX_NOTIFICATIONS = 2000;

/** The tenants of one server, created on first use from their organisation code. */
export class TenantRegistry {
  private readonly tenants = new Map<string, Tenant>();
  /** API key value → organisation, for X-Api-Key checks (Authentication 2). */
  readonly keyOwners = new Map<string, string>();

  constructor(private readonly serverSecret: Buffer) {}

  get(org: string): Tenant {
    let tenant = this.tenants.get(org);
    if (!tenant) {
      const world = generateWorld(org);
      tenant = {
        org,
        world,
        data: dataFileOf(world),
        webhookSecret: `whsec_${createHmac('sha256', this.serverSecret).update(`webhook:${org}`).digest('hex')}`,
        apiKeys: new Map(),
        subscriptions: new Map(),
        notifications: new Map(),
        window: { startedAt: 0, count: 0 },
        sequence: 0,
      };
      this.tenants.set(org, tenant);
    }
    return tenant;
  }

  all(): Iterable<Tenant> {
    return this.tenants.values();
  }
}

/** A fresh identifier of a tenant's record: kind, the world's organisation hash and a counter. */
export function nextId(tenant: Tenant, kind: string): string {
  tenant.sequence += 1;
  return `${kind}_${tenant.world.prefix}_${String(tenant.sequence).padStart(6, '0')}`;
}
