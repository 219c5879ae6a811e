import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { StateFileError } from '../store/records.js';
import type { KeptTeam, TeamRegistry } from '../teams/registry.js';

/** What `FILE.teams` holds. */
interface TeamFileContent {
  readonly format: 'opsapi-teams';
  readonly version: 1;
  readonly teams: readonly KeptTeam[];
}

/** Whether a parsed value is a kept team (a file edited by hand must not crash the mock later). */
function isKeptTeam(value: unknown): value is KeptTeam {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.id === 'string' &&
    typeof t.name === 'string' &&
    typeof t.orgPrefix === 'string' &&
    t.orgPrefix.length > 0 &&
    Number.isSafeInteger(t.maxOrgs) &&
    (t.maxOrgs as number) > 0 &&
    typeof t.createdAt === 'string' &&
    typeof t.keyDigest === 'string' &&
    /^[0-9a-f]{64}$/.test(t.keyDigest)
  );
}

/** Reads `path`: the teams it keeps, or a StateFileError naming what is wrong (one line, never a stack trace). */
function readTeams(path: string): KeptTeam[] {
  let content: Partial<TeamFileContent>;
  try {
    content = JSON.parse(readFileSync(path, 'utf8')) as Partial<TeamFileContent>;
  } catch (error) {
    throw new StateFileError(
      `${path}: the teams are not valid JSON (${(error as Error).message}); refusing to start without them.`,
    );
  }
  if (content?.format !== 'opsapi-teams' || content.version !== 1 || !Array.isArray(content.teams))
    throw new StateFileError(`${path}: not an opsapi teams file (format/version).`);
  const bad = content.teams.findIndex((team) => !isKeptTeam(team));
  if (bad !== -1) throw new StateFileError(`${path}: team ${bad + 1} is not a valid team; refusing to start.`);
  return [...content.teams];
}

/** Writes the teams atomically (temp file, fsync, rename), readable by the owner only: they hold key digests. */
function writeTeams(path: string, teams: readonly KeptTeam[]): void {
  const content: TeamFileContent = { format: 'opsapi-teams', version: 1, teams };
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(content));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/**
 * The teams of a mock kept with `--state FILE`, in `FILE.teams` beside the snapshot and its journal (docs/DESIGN.md,
 * "Team credentials (shared sandbox)"): read at start, rewritten whole at each change. A file of its own (inferred):
 * teams change a few times a day while tenants write all the time, so the journal's group commit and compaction have
 * nothing to gain from them, and keeping them apart leaves the tenants' state file as it is. A team is created or
 * revoked before its answer is sent, so an acknowledged team survives a crash.
 */
export function keepTeams(stateFile: string, teams: TeamRegistry): void {
  const path = `${stateFile}.teams`;
  if (existsSync(path)) for (const team of readTeams(path)) teams.apply({ kind: 'create', team });
  teams.listeners.push(() => writeTeams(path, teams.kept()));
}
