import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityRecord, StateHeader } from '../store/records.js';

/** Characters of snapshot text written at once: a slice of the work between two turns of the event loop. */
const SLICE_CHARS = 64 * 1024;

/** What a snapshot is written from: the header and each tenant's kept entities at the moment it is reached. */
export interface SnapshotSource {
  readonly header: StateHeader;
  orgs(): string[];
  records(org: string): EntityRecord[];
}

/**
 * The snapshot's JSON text (`{...header, "tenants": {org: [records]}}`) in slices of about SLICE_CHARS. Each tenant's
 * records are read when the text reaches it, so a snapshot written while writes go on holds each tenant as it was at
 * some instant after the compaction began; replaying the journal kept from that beginning over it gives the same
 * state (each record is an entity's latest value, and a reset clears the tenant before its later records).
 */
function* snapshotText(source: SnapshotSource): Generator<string> {
  let text = `${JSON.stringify(source.header).slice(0, -1)},"tenants":{`;
  let first = true;
  for (const org of source.orgs()) {
    const records = source.records(org);
    if (records.length === 0) continue;
    text += `${first ? '' : ','}${JSON.stringify(org)}:[`;
    first = false;
    for (let i = 0; i < records.length; i++) {
      text += `${i === 0 ? '' : ','}${JSON.stringify(records[i])}`;
      if (text.length >= SLICE_CHARS) {
        yield text;
        text = '';
      }
    }
    text += ']';
  }
  yield `${text}}}`;
}

/** fsync of a directory, so a rename in it is durable (some file systems refuse it; the rename is atomic anyway). */
export function fsyncDir(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here: the rename itself is still atomic.
  }
}

/** Writes the snapshot at once (graceful shutdown, when no request waits): temp file, fsync, rename, fsync dir. */
export function writeSnapshotNow(path: string, source: SnapshotSource): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    for (const slice of snapshotText(source)) writeSync(fd, slice);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  fsyncDir(path);
}

/**
 * Writes the snapshot in slices while the mock serves: between two slices the event loop runs (the write itself is
 * asynchronous), so a compaction of a large state delays no other tenant's request by more than a slice
 * (docs/DESIGN.md, "Shared sandbox": compaction does not stall other tenants). Atomic like `writeSnapshotNow`, with
 * a temp file of its own. Resolves false, leaving the snapshot as it was, when `cancelled()` turned true meanwhile.
 */
export async function writeSnapshotSliced(
  path: string,
  source: SnapshotSource,
  cancelled: () => boolean,
): Promise<boolean> {
  const tmp = `${path}.compact.tmp`;
  const handle = await open(tmp, 'w');
  let done = false;
  try {
    for (const slice of snapshotText(source)) {
      if (cancelled()) return false;
      await handle.write(slice);
      await nextTurn();
    }
    await handle.sync();
    done = true;
  } finally {
    await handle.close();
    if (!done) rmSync(tmp, { force: true });
  }
  if (cancelled()) {
    rmSync(tmp, { force: true });
    return false;
  }
  renameSync(tmp, path);
  // The directory's fsync off the event loop too: until it is done a crash keeps the old snapshot, which the whole
  // journal (not replaced before this resolves) completes.
  try {
    const dir = await open(dirname(path), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Not supported here: the rename itself is still atomic.
  }
  return true;
}
