import { closeSync, fstatSync, fsyncSync, ftruncateSync, openSync, writeSync } from 'node:fs';

/**
 * The file operations the journal makes, as a seam: the system's by default, a failing one in tests (a full disk or
 * an I/O error at a chosen write, without a small file system to fill).
 */
export interface JournalIo {
  open(path: string): number;
  /** Writes part of `data` at the end of the file; returns the bytes written (possibly fewer than asked). */
  write(fd: number, data: Buffer, offset: number, length: number): number;
  fsync(fd: number): void;
  truncate(fd: number, length: number): void;
  size(fd: number): number;
  close(fd: number): void;
}

const systemIo: JournalIo = {
  open: (path) => openSync(path, 'a'),
  write: (fd, data, offset, length) => writeSync(fd, data, offset, length),
  fsync: (fd) => fsyncSync(fd),
  truncate: (fd, length) => ftruncateSync(fd, length),
  size: (fd) => fstatSync(fd).size,
  close: (fd) => closeSync(fd),
};

/** A journal write that did not reach the disk (ENOSPC, EIO, ...): the writes it carried are not acknowledged. */
export class StateWriteError extends Error {
  override readonly name = 'StateWriteError';
}

/**
 * Appends whole records to the journal and makes them durable, or leaves the file as it was. A write the disk takes
 * only in part (a full disk returns a short count, then ENOSPC) or whose fsync fails is cut back to the end of the
 * last durable record, so the file stays loadable with every acknowledged write and nothing torn after it; the text is
 * handed back to be written again (docs/DESIGN.md, "Shared sandbox": nothing acknowledged is lost; once space returns
 * the mock goes on).
 */
export class JournalWriter {
  private fd: number;
  /** Bytes of the file that are complete, durable records. */
  private durable: number;

  constructor(
    readonly path: string,
    private readonly io: JournalIo = systemIo,
  ) {
    this.fd = io.open(path);
    this.durable = io.size(this.fd);
  }

  /** Bytes of complete records in the file. */
  get size(): number {
    return this.durable;
  }

  /** Writes `text` (whole records) and fsyncs it; on failure cuts the file back and throws StateWriteError. */
  append(text: string): void {
    const data = Buffer.from(text);
    let written = 0;
    try {
      // A failed cut-back left a torn tail: it goes first, or the next record would follow it mid-file.
      if (this.dirty) this.truncateToDurable();
      // fs.writeSync makes one write(2): a short count is not an error, so the rest is written until all of it is.
      while (written < data.length) written += this.io.write(this.fd, data, written, data.length - written);
      this.io.fsync(this.fd);
      this.durable += data.length;
    } catch (error) {
      this.cutBack();
      throw new StateWriteError(
        `cannot write the state journal ${this.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
  }

  /** Closes the file (a later `reopen` opens it again, e.g. after compaction replaced it). */
  close(): void {
    this.io.close(this.fd);
  }

  /** Opens the file at `path` again (after it was replaced). */
  reopen(): void {
    this.fd = this.io.open(this.path);
    this.durable = this.io.size(this.fd);
  }

  /** Whether the file may hold bytes past the durable records (a cut-back failed). */
  private dirty = false;

  private cutBack(): void {
    this.dirty = true;
    try {
      this.truncateToDurable();
    } catch {
      // Nothing more can be done now: the next append cuts back first, and a torn tail still there at the next start
      // is dropped with a warning (mock/persistence/line-codec.ts).
    }
  }

  private truncateToDurable(): void {
    this.io.truncate(this.fd, this.durable);
    this.io.fsync(this.fd);
    this.dirty = false;
  }
}
