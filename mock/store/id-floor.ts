import type { EntityRecord } from './records.js';
import type { TenantState } from './tenant-state.js';

const ID_PATTERN = /^([a-z]+)_[A-Za-z0-9]+_(\d+)$/;

/**
 * Continues each of a tenant's id sequences after the highest id that `records` hold, so an entity written
 * elsewhere (a restored state file, another replica's log) is never given the same id again here.
 */
export function raiseIdFloors(tenant: TenantState, records: Iterable<EntityRecord>): void {
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
