import { linkSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { StateFileError } from '../store/records.js';

/** How often the holder touches its lock, and after how long without a touch a lock of another host is stale. */
const HEARTBEAT_MS = 10_000;
const FOREIGN_STALE_MS = 3 * HEARTBEAT_MS;
/** A lock file that cannot be read as one (being written by a starter without hard links) is live this long. */
const UNREADABLE_GRACE_MS = 2_000;

/** Who holds a lock: what a second starter needs to tell whether that holder still runs. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  /** The process's start time (Linux: /proc/<pid>/stat, field 22), so a recycled pid is not taken for the holder. */
  readonly start: string | null;
  readonly since: string;
}

/** A process's start time and whether it is a zombie, from /proc (null where there is no /proc). */
function processStat(pid: number): { start: string; zombie: boolean } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from field 3 (state) on.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { start: fields[19] ?? '', zombie: fields[0] === 'Z' };
  } catch {
    return null;
  }
}

function running(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: a process of another user has that pid; it runs.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = processStat(holder.pid);
  if (stat === null) return true;
  return !stat.zombie && (holder.start === null || stat.start === holder.start);
}

/** What a starter finds at the lock path: its text, holder and age (null: the file went away meanwhile). */
function readLock(path: string): { text: string; holder: Holder | null; ageMs: number } | null {
  try {
    const text = readFileSync(path, 'utf8');
    const ageMs = Date.now() - statSync(path).mtimeMs;
    let holder: Holder | null = null;
    try {
      const parsed = JSON.parse(text) as Holder;
      if (typeof parsed.pid === 'number' && typeof parsed.host === 'string') holder = parsed;
    } catch {
      holder = null;
    }
    return { text, holder, ageMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function live(found: { holder: Holder | null; ageMs: number }): boolean {
  const { holder, ageMs } = found;
  if (!holder) return ageMs < UNREADABLE_GRACE_MS;
  // Another host's process cannot be asked: its lock is live while it keeps touching it.
  if (holder.host !== hostname()) return ageMs < FOREIGN_STALE_MS;
  return running(holder);
}

/** Creates `path` holding `text` only if it does not exist; false when it does. */
function createExclusive(path: string, text: string): boolean {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  try {
    // A hard link appears whole or not at all: a reader never sees a half-written lock.
    linkSync(tmp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // A file system without hard links: an exclusive create (a reader may see it empty for an instant: the grace).
    try {
      writeFileSync(path, text, { flag: 'wx' });
      return true;
    } catch (inner) {
      if ((inner as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw inner;
    }
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * The exclusive lock of a state file (`FILE.lock`): two live mocks on one file would interleave their journals and
 * lose acknowledged writes, so the second refuses to start (docs/DESIGN.md, "Shared sandbox").
 *
 * Inferred, why a lock file with the holder's pid and not flock(2): Node has no flock, and the packages that bind it
 * (fs-ext, os-lock) build native code at install, which a machine without a compiler cannot do; proper-lockfile's
 * staleness is an mtime older than some seconds, so a restart right after a SIGKILL would be refused for that long.
 * Here a lock is the holder's pid, host and process start time: on its own host a starter asks the system whether
 * that process still runs (kill(pid, 0), and /proc for a recycled pid or a zombie), so a killed mock's lock is stale
 * at once; a holder on another host (a volume shared by containers) touches its lock every 10 s, and a lock of
 * another host untouched for 30 s is stale. A stale lock is moved aside with rename, which only one of several
 * starters can do to one file; the mover checks it moved the lock it judged stale and puts back a live one.
 */
export class StateLock {
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    private readonly path: string,
    private readonly text: string,
  ) {
    this.heartbeat = setInterval(() => this.touch(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Takes the lock of `stateFile`; throws StateFileError (one line) when a live mock holds it. */
  static acquire(stateFile: string): StateLock {
    const path = `${stateFile}.lock`;
    const holder: Holder = {
      pid: process.pid,
      host: hostname(),
      start: processStat(process.pid)?.start ?? null,
      since: new Date().toISOString(),
    };
    const text = `${JSON.stringify(holder)}\n`;
    try {
      for (let tries = 0; tries < 5; tries++) {
        if (createExclusive(path, text)) return new StateLock(path, text);
        const found = readLock(path);
        if (!found) continue;
        if (live(found)) throw new StateFileError(inUse(stateFile, found.holder));
        const aside = `${path}.${process.pid}.stale`;
        try {
          renameSync(path, aside);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        // Another starter may have replaced the stale lock between the read and the rename: its lock goes back.
        if (readFileSync(aside, 'utf8') !== found.text) {
          try {
            linkSync(aside, path);
          } catch {
            // A third starter holds it now; the loop finds its lock.
          }
        }
        unlinkSync(aside);
      }
    } catch (error) {
      if (error instanceof StateFileError) throw error;
      throw new StateFileError(`cannot lock ${stateFile} (${path}): ${(error as Error).message}`);
    }
    throw new StateFileError(`cannot lock ${stateFile}: ${path} keeps changing; is another mock starting on it?`);
  }

  /** Gives the lock up (only if it is still this one). */
  release(): void {
    clearInterval(this.heartbeat);
    try {
      if (readFileSync(this.path, 'utf8') === this.text) unlinkSync(this.path);
    } catch {
      // Already gone: nothing to give up.
    }
  }

  private touch(): void {
    try {
      const now = new Date();
      utimesSync(this.path, now, now);
    } catch {
      // Removed by hand: the next starter finds no lock; nothing to keep alive.
    }
  }
}

function inUse(stateFile: string, holder: Holder | null): string {
  const who = holder ? `pid ${holder.pid} on ${holder.host}, since ${holder.since}` : 'a mock that is starting';
  return `${stateFile} is in use by another mock (${who}); stop it or give this one another --state file`;
}
