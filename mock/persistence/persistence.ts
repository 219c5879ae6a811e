import type { Change } from '../store/change.js';
import type { Store } from '../store/store.js';
import type { TenantState } from '../store/tenant-state.js';
import type { WebhookEngine } from '../webhooks/engine.js';
import type { EntityKind } from '../store/entities.js';
import { entityRecordOf, type EntityRecord, type EntityRecordOf } from '../store/records.js';
import { StateFile, type StateFileOptions } from './state-file.js';
import { raiseIdFloors } from '../store/id-floor.js';

/** What a restore found. */
export interface RestoreReport {
  /** Tenants with persisted state (each loaded on its first request, or at once when it has deliveries to resume). */
  readonly tenants: number;
  readonly entities: number;
  readonly pendingNotifications: number;
  readonly tornTail: boolean;
  /** Records of an older journal kept after a torn write in mid-file (the journal was rewritten). */
  readonly salvaged: number;
}

/**
 * State that survives restarts and evictions (`--state FILE`): every write of every tenant reaches the journal
 * through the store's one write seam. The store's loader (mock/store/tenant-loader.ts) is this state: when a
 * persisted tenant is next requested, after a restart or after `--max-tenants` evicted it, its world is re-seeded
 * (deterministic from seed and org) and its changed entities are replayed on top; pending webhook retries resume
 * on schedule at start-up.
 */
export class Persistence {
  readonly file: StateFile;

  constructor(
    path: string,
    private readonly store: Store,
    private readonly engine: WebhookEngine,
    options: StateFileOptions = {},
  ) {
    this.file = new StateFile(
      path,
      { format: 'opsapi-state', version: 1, seed: store.options.seed, skus: store.options.skus },
      options,
    );
  }

  /**
   * Opens the state file and makes it the store's loader. Tenants with deliveries pending are loaded at once to
   * resume them (and stay pinned in memory while they run); the others on their first request. Throws
   * StateFileError for a file that cannot be trusted.
   */
  restore(): RestoreReport {
    const loaded = this.file.load();
    const { file } = this;
    this.store.useLoader({
      holds: (org) => file.has(org),
      load: (tenant) => replayInto(tenant, file.records(tenant.org)),
      orgs: () => file.orgs(),
      apiKeys: (org) => apiKeysOf(file.records(org)),
    });
    let entities = 0;
    let pendingNotifications = 0;
    const orgs = file.orgs();
    for (const org of orgs) {
      const records = file.records(org);
      entities += records.length;
      if (hasPending(records)) pendingNotifications += this.engine.resume(this.store.tenant(org));
    }
    // Attach after replay: restored entities are not journaled again.
    this.store.onChange((change: Change) =>
      this.file.append({ t: 'change', org: change.org, ...entityRecordOf(change) }),
    );
    this.store.onDrop.push((org, reason) => {
      if (reason === 'reset') this.file.append({ t: 'reset', org });
    });
    return { tenants: orgs.length, entities, pendingNotifications, ...loaded };
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

/** Replays a tenant's persisted entities onto its freshly seeded world, and continues its id sequences. */
function replayInto(tenant: TenantState, records: readonly EntityRecord[]): void {
  for (const record of records) tenant.apply(replayed(tenant.org, record));
  raiseIdFloors(tenant, records);
}

/** The API key values among persisted entities (deactivated keys too: they still name their tenant). */
function apiKeysOf(records: readonly EntityRecord[]): string[] {
  const keys: string[] = [];
  for (const r of records) if (r.entity === 'apiKey' && r.after) keys.push(r.after.apiKey.key);
  return keys;
}

/** Whether persisted entities include a notification still Pending (its deliveries resume at start-up). */
function hasPending(records: Iterable<EntityRecord>): boolean {
  for (const r of records) if (r.entity === 'notification' && r.after?.status === 'Pending') return true;
  return false;
}

/** A persisted entity as a change to replay onto a freshly seeded tenant (nothing before it, at time 0). */
function replayed<K extends EntityKind>(org: string, record: EntityRecordOf<K>): Change<K> {
  return { org, entity: record.entity, id: record.id, before: null, after: record.after, at: 0 };
}
