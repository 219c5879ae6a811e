import type { TenantState } from '../store/tenant-state.js';

/**
 * Forgets a tenant's oldest finished notifications (Success or Failure, with their attempts) beyond `max`, down to
 * 90% of it so the work is amortised (inferred: keeps a long-running mock under webhook traffic bounded). Pending
 * ones are always kept.
 */
export function trimHistory(tenant: TenantState, max: number | undefined): void {
  if (max === undefined || tenant.notifications.size <= max) return;
  const target = Math.floor(max * 0.9);
  const drop: string[] = [];
  let size = tenant.notifications.size;
  for (const n of tenant.notifications.values()) {
    if (size <= target) break;
    if (n.status === 'Pending') continue;
    drop.push(n.id);
    size--;
  }
  for (const id of drop) tenant.commit('notification', id, null);
}
