import type { Change } from '../store/change.js';
import type { Store } from '../store/store.js';
import type { TenantState } from '../store/tenant-state.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { EntityKind } from '../store/entities.js';
import { entityRecordOf, type EntityRecord, type EntityRecordOf } from './records.js';
import { StateFile } from './state-file.js';

/** What a restore found. */
export interface RestoreReport {
  readonly tenants: number;
  readonly entities: number;
  readonly pendingNotifications: number;
  readonly tornTail: boolean;
}

const ID_PATTERN = /^([a-z]+)_[A-Za-z0-9]+_(\d+)$/;

/**
 * State that survives restarts (`--state FILE`): every write of every tenant reaches the journal through the
 * store's one write seam; a restart re-seeds each persisted tenant's world (deterministic from seed and org) and
 * replays its changed entities on top; pending webhook retries resume on schedule.
 */
export class Persistence {
  readonly file: StateFile;

  constructor(
    path: string,
    private readonly store: Store,
    private readonly engine: WebhookEngine,
  ) {
    this.file = new StateFile(path, {
      format: 'opsapi-state',
      version: 1,
      seed: store.options.seed,
      skus: store.options.skus,
    });
  }

  /** Loads the state file into the store. Throws StateFileError for a file that cannot be trusted. */
  restore(): RestoreReport {
    const loaded = this.file.load();
    this.store.retained = (org) => this.file.has(org);
    let entities = 0;
    let pendingNotifications = 0;
    for (const [org, records] of loaded.tenants) {
      const tenant = this.store.tenant(org);
      for (const record of records.values()) {
        tenant.apply(replayed(org, record));
        entities++;
      }
      restoreCounters(tenant, records.values());
      this.store.indexApiKeys(tenant);
      pendingNotifications += this.engine.resume(tenant);
    }
    // Attach after replay: restored entities are not journaled again.
    this.store.onChange((change: Change) =>
      this.file.append({ t: 'change', org: change.org, ...entityRecordOf(change) }),
    );
    this.store.onDrop.push((org, reason) => {
      if (reason === 'reset') this.file.append({ t: 'reset', org });
    });
    return { tenants: loaded.tenants.size, entities, pendingNotifications, tornTail: loaded.tornTail };
  }

  /** Makes every write so far durable (awaited before each response is sent). */
  sync(): Promise<void> {
    return this.file.sync();
  }

  /** Flushes, writes a compact snapshot and closes. */
  close(): void {
    this.file.close();
  }
}

/** A persisted entity as a change to replay onto a freshly seeded tenant (nothing before it, at time 0). */
function replayed<K extends EntityKind>(org: string, record: EntityRecordOf<K>): Change<K> {
  return { org, entity: record.entity, id: record.id, before: null, after: record.after, at: 0 };
}

/** Continues each id sequence after the highest id the restored state holds. */
function restoreCounters(tenant: TenantState, records: Iterable<EntityRecord>): void {
  const max: Record<string, number> = { ...tenant.ids.snapshot() };
  const see = (id: unknown) => {
    if (typeof id !== 'string') return;
    const m = ID_PATTERN.exec(id);
    if (m?.[1] && m[2]) max[m[1]] = Math.max(max[m[1]] ?? 0, Number(m[2]));
  };
  for (const r of records) {
    see(r.id.includes('/') ? r.id.split('/')[1] : r.id);
    const after = r.after;
    if (after === null || typeof after !== 'object') continue;
    if ('id' in after) see(after.id);
    if ('eventId' in after) see(after.eventId);
    if ('apiKey' in after) see(after.apiKey?.id);
  }
  tenant.ids.restore(max);
}
