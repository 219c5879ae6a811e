import type { TeamRegistry } from './registry.js';

/**
 * Who is evicted when a tenant comes into memory, once teams exist (docs/DESIGN.md, "Team credentials (shared
 * sandbox)"): each team keeps at most its `maxOrgs` orgs in memory, and the orgs of no team share the rest of
 * `--max-tenants`, so one team's churn evicts only its own orgs. Inferred: the reference does not know tenants in
 * memory; the rule is what an operator handing one sandbox to many teams needs (no team can push another out).
 */
export class TenantQuotas {
  constructor(private readonly teams: TeamRegistry) {}

  /**
   * The orgs to evict, least recently used first, after `keep` came into memory. `orgs` are the orgs in memory, least
   * recently used first; `evictable` says which may go (idle: not pinned by deliveries). First the group of `keep` (its
   * team, or the orgs of no team) gives up its own least recently used orgs down to its quota; then, if the total is
   * still over `maxTenants` (teams created after their orgs were in memory), groups over their quota give up theirs.
   * A group within its quota never loses an org to another's churn. Without teams: the plain least recently used rule.
   */
  victims(orgs: readonly string[], keep: string, evictable: (org: string) => boolean, maxTenants: number): string[] {
    const groupOf = new Map<string, string>();
    const counts = new Map<string, number>();
    // The orgs of no team are the group '' (team ids are never empty).
    const quotas = new Map([['', Math.max(0, maxTenants - this.teams.reservedOrgs())]]);
    for (const org of orgs) {
      const team = this.teams.teamOf(org);
      const group = team?.id ?? '';
      if (team) quotas.set(group, team.maxOrgs);
      groupOf.set(org, group);
      counts.set(group, (counts.get(group) ?? 0) + 1);
    }
    const out: string[] = [];
    const gone = new Set<string>();
    const take = (org: string, group: string) => {
      out.push(org);
      gone.add(org);
      counts.set(group, (counts.get(group) ?? 0) - 1);
    };
    const own = groupOf.get(keep) ?? '';
    for (const org of orgs) {
      if ((counts.get(own) ?? 0) <= (quotas.get(own) ?? 0)) break;
      if (org !== keep && groupOf.get(org) === own && evictable(org)) take(org, own);
    }
    for (const org of orgs) {
      if (orgs.length - out.length <= maxTenants) break;
      const group = groupOf.get(org) ?? '';
      if (org === keep || gone.has(org) || !evictable(org)) continue;
      if ((counts.get(group) ?? 0) > (quotas.get(group) ?? 0)) take(org, group);
    }
    return out;
  }
}
