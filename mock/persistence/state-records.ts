import type { EntityKind } from '../store/entities.js';
import { entityRecordOf, type EntityRecord, type JournalRecord } from '../store/records.js';

/**
 * Kinds no seeded world holds (a tenant starts with no API key, subscription, notification or attempt): a removed one
 * is the same as one never written, so its tombstone is not kept. A removed entity of a seeded kind (SKU, family,
 * asset, purchase order line) stays recorded as null: replay must remove it from the freshly seeded world.
 */
const NEVER_SEEDED: ReadonlySet<EntityKind> = new Set<EntityKind>([
  'apiKey',
  'subscription',
  'notification',
  'attempt',
]);

const keyOf = (entity: EntityKind, id: string) => `${entity}\u0000${id}`;

/** The notification an attempt belongs to (attempt ids are `<notificationId>/<attemptId>`). */
const notificationOfAttempt = (id: string) => id.split('/')[0] ?? '';

/** One tenant's kept entities, with its attempts indexed by notification (a forgotten notification takes them along). */
class TenantRecords {
  readonly entities = new Map<string, EntityRecord>();
  private readonly attemptKeys = new Map<string, Set<string>>();

  put(record: EntityRecord): void {
    const key = keyOf(record.entity, record.id);
    this.entities.delete(key);
    if (record.entity === 'notification' && record.after === null) this.forgetAttemptsOf(record.id);
    if (record.after === null && NEVER_SEEDED.has(record.entity)) {
      if (record.entity === 'attempt') this.attemptKeys.get(notificationOfAttempt(record.id))?.delete(key);
      return;
    }
    this.entities.set(key, record);
    if (record.entity === 'attempt') {
      const notification = notificationOfAttempt(record.id);
      let keys = this.attemptKeys.get(notification);
      if (!keys) {
        keys = new Set();
        this.attemptKeys.set(notification, keys);
      }
      keys.add(key);
    }
  }

  private forgetAttemptsOf(notificationId: string): void {
    for (const key of this.attemptKeys.get(notificationId) ?? []) this.entities.delete(key);
    this.attemptKeys.delete(notificationId);
  }
}

/**
 * The state a state file holds, in memory: per tenant, the latest value of every entity that differs from its seeded
 * world, in write order (what a snapshot writes and what a tenant is reloaded from). Proportional to live state
 * (docs/DESIGN.md, "Shared sandbox": the state file stays proportional to live state): a reset drops the tenant, the
 * tombstone of an entity no seed holds is dropped, and a forgotten notification (trimmed history) takes its attempts
 * along, so neither the next snapshot nor a reload carries them.
 */
export class StateRecords {
  private readonly tenants = new Map<string, TenantRecords>();
  private count = 0;

  /** Entities kept over every tenant (compaction is due when the journal outgrows them). */
  get size(): number {
    return this.count;
  }

  apply(record: JournalRecord): void {
    switch (record.t) {
      case 'change': {
        let tenant = this.tenants.get(record.org);
        if (!tenant) {
          tenant = new TenantRecords();
          this.tenants.set(record.org, tenant);
        }
        const before = tenant.entities.size;
        tenant.put(entityRecordOf(record));
        this.count += tenant.entities.size - before;
        return;
      }
      case 'reset':
        this.count -= this.tenants.get(record.org)?.entities.size ?? 0;
        this.tenants.delete(record.org);
        return;
      case 'reset-all':
        this.tenants.clear();
        this.count = 0;
        return;
    }
  }

  /** Whether a tenant holds kept state. */
  has(org: string): boolean {
    return (this.tenants.get(org)?.entities.size ?? 0) > 0;
  }

  /** One tenant's kept entities in write order (a copy: later writes do not change it). Empty for an org without. */
  records(org: string): EntityRecord[] {
    const tenant = this.tenants.get(org);
    return tenant ? [...tenant.entities.values()] : [];
  }

  /** The orgs holding kept state. */
  orgs(): string[] {
    return [...this.tenants.keys()].filter((org) => this.has(org));
  }
}
