import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { decodeLines, encodeLine } from './line-codec.js';
import {
  StateFileError,
  entityRecordOf,
  type EntityRecord,
  type JournalRecord,
  type Snapshot,
  type StateHeader,
} from '../store/records.js';

/** Journal lines after which the journal is compacted into the snapshot. */
const COMPACT_AFTER_LINES = 20_000;

/** What a state file held when it was opened. */
interface LoadedState {
  /** Per tenant, the latest value of every changed entity, in write order. */
  readonly tenants: Map<string, Map<string, EntityRecord>>;
  readonly tornTail: boolean;
}

function fsyncDir(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems do not support fsync on directories; the rename itself is still atomic.
  }
}

/**
 * `--state FILE`: a snapshot (`FILE`, written atomically: temp file, fsync, rename) plus an append-only journal
 * (`FILE.journal`, one checksummed line per write). Writes are buffered and made durable by `sync()`, which
 * requests await before their response is sent: one fsync covers every write buffered meanwhile (group commit).
 */
export class StateFile {
  private fd: number | null = null;
  private buffer: string[] = [];
  private journalLines = 0;
  private syncing: Promise<void> | null = null;
  /** Latest value of every changed entity per tenant: the content of the next snapshot. */
  readonly tenants = new Map<string, Map<string, EntityRecord>>();

  constructor(
    readonly path: string,
    private readonly header: StateHeader,
  ) {}

  get journalPath(): string {
    return `${this.path}.journal`;
  }

  /** Reads the snapshot and the journal. Throws StateFileError for a file that cannot be trusted. */
  load(): LoadedState {
    if (existsSync(this.path)) {
      let snapshot: Snapshot;
      try {
        snapshot = JSON.parse(readFileSync(this.path, 'utf8')) as Snapshot;
      } catch (error) {
        throw new StateFileError(
          `${this.path}: the snapshot is not valid JSON (${(error as Error).message}); refusing to start with partial state.`,
        );
      }
      if (
        snapshot.format !== 'opsapi-state' ||
        snapshot.version !== 1 ||
        typeof snapshot.tenants !== 'object' ||
        snapshot.tenants === null
      ) {
        throw new StateFileError(`${this.path}: not an opsapi state file (format/version).`);
      }
      this.checkHeader(snapshot);
      for (const [org, records] of Object.entries(snapshot.tenants)) {
        const map = new Map<string, EntityRecord>();
        for (const r of records) map.set(`${r.entity}\u0000${r.id}`, r);
        this.tenants.set(org, map);
      }
    }
    let tornTail = false;
    if (existsSync(this.journalPath)) {
      const text = readFileSync(this.journalPath, 'utf8');
      const decoded = decodeLines<JournalRecord | StateHeader>(text, this.journalPath);
      tornTail = decoded.tornTail;
      const [first, ...rest] = decoded.records;
      if (first && 'format' in first) this.checkHeader(first);
      for (const record of first && 'format' in first ? rest : decoded.records)
        this.applyRecord(record as JournalRecord);
      this.journalLines = decoded.records.length;
      if (tornTail) writeFileSync(this.journalPath, decoded.records.map((r) => encodeLine(r)).join(''));
    }
    this.fd = openSync(this.journalPath, 'a');
    if (this.journalLines === 0) this.buffer.push(encodeLine(this.header));
    return { tenants: this.tenants, tornTail };
  }

  /** Buffers a record (applied to the in-memory view at once); durable after the next `sync()`. */
  append(record: JournalRecord): void {
    this.applyRecord(record);
    this.buffer.push(encodeLine(record));
  }

  /** Makes every buffered record durable. Concurrent callers share one write + fsync. */
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

  /** Writes and fsyncs the buffer synchronously. */
  flushNow(): void {
    if (this.buffer.length === 0 || this.fd === null) return;
    const text = this.buffer.join('');
    this.journalLines += this.buffer.length;
    this.buffer = [];
    writeSync(this.fd, text);
    fsyncSync(this.fd);
    if (this.journalLines >= COMPACT_AFTER_LINES) this.compact();
  }

  /** Writes the snapshot atomically, then starts an empty journal. */
  compact(): void {
    this.flushBufferOnly();
    const snapshot: Snapshot = {
      ...this.header,
      tenants: Object.fromEntries([...this.tenants].map(([org, map]) => [org, [...map.values()]])),
    };
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(snapshot));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    fsyncDir(this.path);
    if (this.fd !== null) closeSync(this.fd);
    const header = encodeLine(this.header);
    writeFileSync(this.journalPath, header);
    this.fd = openSync(this.journalPath, 'a');
    fsyncSync(this.fd);
    this.journalLines = 1;
  }

  /** Flushes, compacts and closes (graceful shutdown). */
  close(): void {
    this.flushNow();
    this.compact();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** Whether a tenant holds persisted state. */
  has(org: string): boolean {
    return (this.tenants.get(org)?.size ?? 0) > 0;
  }

  /**
   * One tenant's persisted entities, in write order, from memory (the file is read once, at `load`): what an
   * evicted tenant is reloaded from. Empty for an org without state.
   */
  records(org: string): EntityRecord[] {
    const map = this.tenants.get(org);
    return map ? [...map.values()] : [];
  }

  /** The orgs holding persisted state. */
  orgs(): string[] {
    return [...this.tenants.keys()].filter((org) => this.has(org));
  }

  private flushBufferOnly(): void {
    if (this.buffer.length === 0 || this.fd === null) return;
    writeSync(this.fd, this.buffer.join(''));
    fsyncSync(this.fd);
    this.buffer = [];
  }

  private applyRecord(record: JournalRecord): void {
    switch (record.t) {
      case 'change': {
        let map = this.tenants.get(record.org);
        if (!map) {
          map = new Map();
          this.tenants.set(record.org, map);
        }
        const key = `${record.entity}\u0000${record.id}`;
        map.delete(key);
        map.set(key, entityRecordOf(record));
        return;
      }
      case 'reset':
        this.tenants.delete(record.org);
        return;
      case 'reset-all':
        this.tenants.clear();
        return;
      default:
        throw new StateFileError(`${this.journalPath}: unknown record type`);
    }
  }

  private checkHeader(h: StateHeader): void {
    if (h.seed !== this.header.seed || h.skus !== this.header.skus) {
      throw new StateFileError(
        `${this.path} was written with --seed ${h.seed} --skus ${h.skus}; this mock runs with --seed ${this.header.seed} --skus ${this.header.skus}. Use the same settings or another state file.`,
      );
    }
  }
}
