import { createHash, randomBytes } from 'node:crypto';

/**
 * Teams of a shared sandbox (docs/DESIGN.md, "Team credentials (shared sandbox)"): the operator creates a team bound
 * to an org prefix and hands its key to the team, which then reaches only the orgs starting with that prefix. Inferred
 * throughout: the reference does not know the mock's admin API.
 */

/** A team as the admin API shows it (never its key). */
export interface Team {
  readonly id: string;
  readonly name: string;
  readonly orgPrefix: string;
  /** Most of its orgs kept in memory at once: touching one more evicts its own least recently used idle org. */
  readonly maxOrgs: number;
  /** ISO 8601, real time. */
  readonly createdAt: string;
}

/** A team as it is kept (persisted, shared through Redis): with the SHA-256 of its key, never the key itself. */
export interface KeptTeam extends Team {
  readonly keyDigest: string;
}

/** What changes the registry: told to the places that keep or share teams. */
export type TeamChange =
  | { readonly kind: 'create'; readonly team: KeptTeam }
  | { readonly kind: 'revoke'; readonly id: string };

/** What a team is created from. */
interface TeamRequest {
  readonly name: string;
  readonly orgPrefix: string;
  readonly maxOrgs?: number | undefined;
}

/** Why a team cannot be created. */
type TeamRefusal =
  | { readonly reason: 'overlap'; readonly other: Team }
  | { readonly reason: 'capacity'; readonly asked: number; readonly available: number };

/**
 * `maxOrgs` of a team that names none (inferred): 10 orgs in memory per team lets the default `--max-tenants` of 1000
 * hold 100 teams at their bound; a team's orgs beyond it are evicted, not refused (reloaded with `--state`).
 */
export const DEFAULT_MAX_ORGS = 10;

/** The SHA-256 of a key, hex: what is kept and looked up. */
function keyDigestOf(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new team key: 32 random bytes (beyond guessing), base64url, after a prefix that says what it is when leaked. */
function newTeamKey(): string {
  return `opsteam_${randomBytes(32).toString('base64url')}`;
}

/** Whether two prefixes overlap: an org could start with both (one is a prefix of the other). */
function overlaps(a: string, b: string): boolean {
  return a.startsWith(b) || b.startsWith(a);
}

/** The part of a kept team the admin API shows. */
function shown({ id, name, orgPrefix, maxOrgs, createdAt }: KeptTeam): Team {
  return { id, name, orgPrefix, maxOrgs, createdAt };
}

/**
 * The teams of a mock, in memory: every lookup a request makes (a team key, a token's team, an org's team) is a Map
 * lookup, no I/O. Changes made here are told to `listeners` (persistence, replication); changes made elsewhere (a
 * state file at start, another replica) come in through `apply`, which tells nobody.
 */
export class TeamRegistry {
  private readonly byId = new Map<string, KeptTeam>();
  private readonly byDigest = new Map<string, KeptTeam>();
  private readonly byPrefix = new Map<string, KeptTeam>();
  /** The distinct lengths of the prefixes, so an org's team is found with one lookup per length. */
  private prefixLengths: number[] = [];
  /** Ids of revoked teams (never reused: random), so a stale copy of the teams read elsewhere cannot bring one back. */
  private readonly revoked = new Set<string>();
  /** Writes of changes under way elsewhere (Redis), which an answer awaits (`settled`). */
  private pending: Promise<unknown>[] = [];
  /** Told every change made here; a listener that returns a promise is awaited by `settled` (the answer waits). */
  readonly listeners: ((change: TeamChange) => unknown)[] = [];
  /** How a replica hears of teams another replica just made, before it answers a miss (`useReload`). */
  private reload: (() => Promise<void>) | undefined;

  /** `maxTenants`: the sum of every team's `maxOrgs` stays within it (`--max-tenants`). */
  constructor(readonly maxTenants: number) {}

  /** Creates a team: its key is in the answer only (the registry keeps its digest). */
  create(
    request: TeamRequest,
    nowMs: number,
  ): { ok: true; team: Team; teamKey: string } | ({ ok: false } & TeamRefusal) {
    const other = [...this.byId.values()].find((t) => overlaps(t.orgPrefix, request.orgPrefix));
    if (other) return { ok: false, reason: 'overlap', other: shown(other) };
    const maxOrgs = request.maxOrgs ?? DEFAULT_MAX_ORGS;
    const available = this.maxTenants - this.reservedOrgs();
    if (maxOrgs > available) return { ok: false, reason: 'capacity', asked: maxOrgs, available };
    const teamKey = newTeamKey();
    const team: KeptTeam = {
      id: `team_${randomBytes(8).toString('hex')}`,
      name: request.name,
      orgPrefix: request.orgPrefix,
      maxOrgs,
      createdAt: new Date(nowMs).toISOString(),
      keyDigest: keyDigestOf(teamKey),
    };
    this.apply({ kind: 'create', team });
    this.tell({ kind: 'create', team });
    return { ok: true, team: shown(team), teamKey };
  }

  /** Revokes a team: its key and every token it minted stop working at once. False for an unknown id. */
  revoke(id: string): boolean {
    if (!this.byId.has(id)) return false;
    this.apply({ kind: 'revoke', id });
    this.tell({ kind: 'revoke', id });
    return true;
  }

  /** Resolves once every change made so far is kept and shared (rejects when one could not be). */
  async settled(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    await Promise.all(pending);
  }

  private tell(change: TeamChange): void {
    for (const listener of this.listeners) {
      const written = listener(change);
      if (written instanceof Promise) this.pending.push(written);
    }
  }

  /** Applies a change made elsewhere (kept state, another replica), telling no listener. */
  apply(change: TeamChange): void {
    if (change.kind === 'create') {
      const { team } = change;
      if (this.revoked.has(team.id)) return;
      this.drop(team.id);
      this.byId.set(team.id, team);
      this.byDigest.set(team.keyDigest, team);
      this.byPrefix.set(team.orgPrefix, team);
    } else {
      this.revoked.add(change.id);
      this.drop(change.id);
    }
    this.prefixLengths = [...new Set([...this.byPrefix.keys()].map((p) => p.length))];
  }

  /**
   * Installs how to catch up with teams kept elsewhere (a replicated mock: mock/replication/), asked on a miss only:
   * a key or a token's team this process has not heard of may belong to a team another replica created a moment ago.
   */
  useReload(reload: () => Promise<void>): void {
    this.reload = reload;
  }

  /** Whether a team exists, catching up first on a miss when teams are shared (a token's team claim). */
  exists(id: string): boolean | Promise<boolean> {
    if (this.byId.has(id) || !this.reload) return this.byId.has(id);
    return this.reload().then(() => this.byId.has(id));
  }

  /** The team of a key, catching up first on a miss when teams are shared. */
  async findByKey(key: string): Promise<Team | undefined> {
    const found = this.byKey(key);
    if (found || !this.reload) return found;
    await this.reload();
    return this.byKey(key);
  }

  /** Every team, oldest first, as the admin API shows them. */
  list(): Team[] {
    return [...this.byId.values()].map(shown);
  }

  /** Every team as kept (a snapshot for a state file). */
  kept(): KeptTeam[] {
    return [...this.byId.values()];
  }

  get size(): number {
    return this.byId.size;
  }

  /** Whether a team exists (a token's team claim, checked on every request). */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The team of a key, if any. A lookup by SHA-256: what it costs tells nothing of the key. */
  byKey(key: string): Team | undefined {
    const team = this.byDigest.get(keyDigestOf(key));
    return team && shown(team);
  }

  /** The id of the team whose prefix the org starts with (prefixes never overlap: at most one), if any. */
  teamOf(org: string): KeptTeam | undefined {
    for (const length of this.prefixLengths) {
      if (length > org.length) continue;
      const team = this.byPrefix.get(org.slice(0, length));
      if (team) return team;
    }
    return undefined;
  }

  /** The orgs every team reserves (the sum of their `maxOrgs`). */
  reservedOrgs(): number {
    let sum = 0;
    for (const team of this.byId.values()) sum += team.maxOrgs;
    return sum;
  }

  private drop(id: string): void {
    const team = this.byId.get(id);
    if (!team) return;
    this.byId.delete(id);
    this.byDigest.delete(team.keyDigest);
    this.byPrefix.delete(team.orgPrefix);
  }
}
