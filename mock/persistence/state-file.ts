import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { decodeLines, encodeLine } from './line-codec.js';
import { JournalWriter, type JournalIo } from './journal-writer.js';
import { StateLock } from './state-lock.js';
import { StateRecords } from './state-records.js';
import { journalLineOf, snapshotProblem } from './state-shapes.js';
import { fsyncDir, writeSnapshotNow, writeSnapshotSliced, type SnapshotSource } from './snapshot-writer.js';
import {
  StateFileError,
  type EntityRecord,
  type JournalRecord,
  type Snapshot,
  type StateHeader,
} from '../store/records.js';

/** What a state file held when it was opened, beyond its records. */
interface LoadedState {
  readonly tornTail: boolean;
  /** Lines of an older journal that began with a torn write and kept the record after it. */
  readonly salvaged: number;
}

/** How a state file is written. */
export interface StateFileOptions {
  /** Journal lines after which it is compacted into the snapshot (at least as many as the entities kept). */
  readonly compactAfterLines?: number;
  /** The journal's file operations (tests inject failing ones). */
  readonly io?: JournalIo;
  /** Where trouble the mock survives is told (a failed write, a failed compaction, a repaired journal). */
  readonly warn?: (message: string) => void;
}

const DEFAULT_COMPACT_AFTER_LINES = 20_000;

/**
 * `--state FILE`: a snapshot (`FILE`, written atomically: temp file, fsync, rename) plus an append-only journal
 * (`FILE.journal`, one checksummed line per write), held by one mock at a time (`FILE.lock`: ./state-lock.ts).
 * Writes are buffered and made durable by `sync()`, which requests await before their response is sent: one fsync
 * covers every write buffered meanwhile (group commit). A write the disk refuses is cut back and kept buffered: the
 * requests waiting on it are not acknowledged, and it is written again by the next sync (./journal-writer.ts).
 * Compaction runs beside the traffic once the journal holds more lines than the state has entities (and at least
 * `compactAfterLines`), so the files stay proportional to live state (docs/DESIGN.md, "Shared sandbox").
 */
export class StateFile {
  private journal: JournalWriter | null = null;
  private lock: StateLock | null = null;
  private buffer: string[] = [];
  private journalLines = 0;
  private syncing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  /** Journal lines at which a compaction is next due (pushed back after one failed). */
  private compactAt: number;
  private closed = false;
  /** Latest value of every changed entity per tenant: the content of the next snapshot. */
  readonly state = new StateRecords();

  constructor(
    readonly path: string,
    private readonly header: StateHeader,
    private readonly options: StateFileOptions = {},
  ) {
    this.compactAt = options.compactAfterLines ?? DEFAULT_COMPACT_AFTER_LINES;
  }

  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /** The compaction running beside the traffic, if any (tests and benchmarks wait for it). */
  get compaction(): Promise<void> | null {
    return this.compacting;
  }

  /** Locks the file, reads the snapshot and the journal. Throws StateFileError for a file that cannot be trusted. */
  load(): LoadedState {
    this.lock = StateLock.acquire(this.path);
    try {
      return this.read();
    } catch (error) {
      this.lock.release();
      this.lock = null;
      throw error;
    }
  }

  private read(): LoadedState {
    // Left by a compaction or shutdown that did not finish: never renamed, so never part of the state.
    for (const tmp of [`${this.path}.tmp`, `${this.path}.compact.tmp`, `${this.journalPath}.tmp`])
      rmSync(tmp, { force: true });
    if (existsSync(this.path)) this.readSnapshot();
    let tornTail = false;
    let salvaged = 0;
    if (existsSync(this.journalPath)) {
      const text = readFileSync(this.journalPath, 'utf8');
      const decoded = decodeLines<unknown>(text, this.journalPath);
      ({ tornTail, salvaged } = decoded);
      decoded.records.forEach((value, i) => {
        const line = journalLineOf(value);
        if ('problem' in line)
          throw new StateFileError(
            `${this.journalPath}: line ${i + 1} is not a state record: ${line.problem}; refusing to start with partial state.`,
          );
        if ('header' in line) this.checkHeader(line.header);
        else this.state.apply(line.record);
      });
      this.journalLines = decoded.records.length;
      if (salvaged > 0) {
        // Records after a torn write in mid-file: the file is written again whole, each record on its own line.
        this.replaceJournal(decoded.records.map((r) => encodeLine(r)).join(''));
        this.journalLines = decoded.records.length;
        this.warn(
          `${this.journalPath}: kept ${salvaged} record(s) that followed a torn write, and rewrote the journal`,
        );
      } else if (tornTail) {
        // Cut back to the last whole record: the torn write was never acknowledged.
        truncateSync(this.journalPath, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1)));
        this.warn(`${this.journalPath}: dropped a torn last line (a write that was never acknowledged)`);
      }
    }
    this.journal = new JournalWriter(this.journalPath, this.options.io);
    if (this.journalLines === 0) this.buffer.push(encodeLine(this.header));
    return { tornTail, salvaged };
  }

  private readSnapshot(): void {
    let snapshot: unknown;
    try {
      snapshot = JSON.parse(readFileSync(this.path, 'utf8'));
    } catch (error) {
      throw new StateFileError(
        `${this.path}: the snapshot is not valid JSON (${(error as Error).message}); refusing to start with partial state.`,
      );
    }
    const format = snapshot as Partial<StateHeader> | null;
    if (format?.format !== 'opsapi-state' || format.version !== 1)
      throw new StateFileError(`${this.path}: not an opsapi state file (format/version).`);
    const problem = snapshotProblem(snapshot);
    if (problem)
      throw new StateFileError(
        `${this.path}: the snapshot is mangled at ${problem}; refusing to start with partial state. Move the file away to start empty.`,
      );
    const valid = snapshot as Snapshot;
    this.checkHeader(valid);
    for (const [org, records] of Object.entries(valid.tenants))
      for (const record of records) this.state.apply({ t: 'change', org, ...record });
  }

  /** Buffers a record (applied to the in-memory view at once); durable after the next `sync()`. */
  append(record: JournalRecord): void {
    this.state.apply(record);
    this.buffer.push(encodeLine(record));
  }

  /** Makes every buffered record durable. Concurrent callers share one write + fsync. Rejects with StateWriteError. */
  sync(): Promise<void> {
    if (this.buffer.length === 0 && !this.syncing) return Promise.resolve();
    if (this.syncing) return this.syncing.then(() => this.sync());
    this.syncing = new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        try {
          this.flushNow();
          resolve();
        } catch (error) {
          reject(error as Error);
        } finally {
          this.syncing = null;
        }
      });
    });
    return this.syncing;
  }

  /** Writes and fsyncs the buffer synchronously; on a failed write the buffer stays, to be written again. */
  flushNow(): void {
    if (this.buffer.length === 0 || this.journal === null) return;
    this.journal.append(this.buffer.join(''));
    this.journalLines += this.buffer.length;
    this.buffer = [];
    if (!this.compacting && !this.closed && this.journalLines >= Math.max(this.compactAt, this.state.size))
      this.compacting = this.compactBeside().finally(() => {
        this.compacting = null;
      });
  }

  /** Compacts synchronously (shutdown: nobody waits): the snapshot, then an empty journal. */
  compact(): void {
    try {
      this.flushNow();
    } catch {
      // The snapshot below carries the buffered writes too (they are in the in-memory view).
    }
    writeSnapshotNow(this.path, this.source());
    this.replaceJournal(encodeLine(this.header));
    this.journalLines = 1;
  }

  /** Flushes, compacts and closes (graceful shutdown); a compaction running beside the traffic is abandoned. */
  close(): void {
    // Once: a second close must not write files whose lock it gave up.
    if (this.closed) return;
    this.closed = true;
    try {
      this.compact();
    } catch (error) {
      // The files stay as they were, loadable: the journal holds every write that reached the disk.
      this.warn(`${this.path}: could not write the final snapshot (${(error as Error).message})`);
    }
    this.journal?.close();
    this.journal = null;
    this.lock?.release();
    this.lock = null;
  }

  /** Whether a tenant holds persisted state. */
  has(org: string): boolean {
    return this.state.has(org);
  }

  /** One tenant's persisted entities, in write order, from memory (the file is read once, at `load`). */
  records(org: string): EntityRecord[] {
    return this.state.records(org);
  }

  /** The orgs holding persisted state. */
  orgs(): string[] {
    return this.state.orgs();
  }

  /**
   * A compaction beside the traffic: the journal's end is marked, the snapshot is written in slices while writes go
   * on appending, then the journal is replaced by what was appended after the mark, in one synchronous step. A crash
   * at any point leaves a loadable pair: before the rename the old snapshot and the whole journal; after it the new
   * snapshot and the whole journal (replaying from the mark's earlier state over a later snapshot ends the same).
   */
  private async compactBeside(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    const mark = journal.size;
    try {
      if (!(await writeSnapshotSliced(this.path, this.source(), () => this.closed))) return;
      if (this.closed) return;
      this.flushNow();
      this.journalLines = 1 + countLines(this.replaceJournal(encodeLine(this.header), mark));
    } catch (error) {
      // Tried again once the journal has grown by as much again; until then the files stay as they are.
      this.compactAt = this.journalLines + (this.options.compactAfterLines ?? DEFAULT_COMPACT_AFTER_LINES);
      this.warn(`${this.path}: compaction failed (${(error as Error).message}); the journal keeps every write`);
    }
  }

  /**
   * Replaces the journal with `head` followed by the current journal's bytes from `from` on (none without `from`),
   * atomically: temp file, fsync, rename, fsync dir; then appends go to the new file. Returns the bytes kept.
   */
  private replaceJournal(head: string, from?: number): Buffer {
    let tail = Buffer.alloc(0);
    if (from !== undefined && this.journal) {
      const fd = openSync(this.journalPath, 'r');
      try {
        tail = Buffer.alloc(Math.max(0, this.journal.size - from));
        readSync(fd, tail, 0, tail.length, from);
      } finally {
        closeSync(fd);
      }
    }
    const tmp = `${this.journalPath}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, head);
      writeFileSync(fd, tail);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.journalPath);
    fsyncDir(this.journalPath);
    this.journal?.close();
    this.journal?.reopen();
    return tail;
  }

  private source(): SnapshotSource {
    return { header: this.header, orgs: () => this.state.orgs(), records: (org) => this.state.records(org) };
  }

  private warn(message: string): void {
    (this.options.warn ?? ((m: string) => process.stderr.write(`opsapi mock: ${m}\n`)))(message);
  }

  private checkHeader(h: StateHeader): void {
    if (h.seed !== this.header.seed || h.skus !== this.header.skus) {
      throw new StateFileError(
        `${this.path} was written with --seed ${h.seed} --skus ${h.skus}; this mock runs with --seed ${this.header.seed} --skus ${this.header.skus}. Use the same settings or another state file.`,
      );
    }
  }
}

function countLines(data: Buffer): number {
  let n = 0;
  for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) n++;
  return n;
}
