/**
 * The state file under faults it must survive, with the real file system and an injected journal writer where a full
 * disk or an I/O error is needed: a refused write is cut back and not acknowledged, and written once space returns;
 * a torn journal is cut back at start with a warning; compaction runs beside the writes, keeps only live state, and
 * leaves a loadable pair at every step; a mangled line is refused with one line.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeLines, encodeLine } from '../line-codec.js';
import { StateWriteError, type JournalIo } from '../journal-writer.js';
import { StateFile } from '../state-file.js';
import type { JournalRecord, StateHeader } from '../../store/records.js';

const dir = mkdtempSync(join(tmpdir(), 'opsapi-state-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER: StateHeader = { format: 'opsapi-state', version: 1, seed: 1, skus: 10 };
let files = 0;
const freshPath = () => join(dir, `state-${files++}.json`);

/** A change record of a kind the tests need, shaped as the state checks expect (the values are not the mock's). */
function change(org: string, entity: string, id: string, after: unknown): JournalRecord {
  return { t: 'change', org, entity, id, after } as unknown as JournalRecord;
}
const subscription = (org: string, id: string) => change(org, 'subscription', id, { id });

/** A copy of the files as a crash would leave them, opened by a second StateFile (the first one keeps its lock). */
function reopenCopy(path: string, journalText?: string): StateFile {
  const copy = freshPath();
  if (existsSync(path)) copyFileSync(path, copy);
  writeFileSync(`${copy}.journal`, journalText ?? readFileSync(`${path}.journal`));
  const file = new StateFile(copy, HEADER, { warn: () => {} });
  file.load();
  return file;
}

const ids = (file: StateFile, org: string) => file.records(org).map((r) => `${r.entity}:${r.id}`);

/** A journal writer on the real file system that can be made to fail like a full disk or a failing device. */
function faultyIo() {
  const io = {
    fault: null as null | 'full' | 'eio',
    open: (path: string) => openSync(path, 'a'),
    write(fd: number, data: Buffer, offset: number, length: number): number {
      if (io.fault === 'full') {
        // A full disk takes part of the write, then refuses the rest.
        if (length > 8) return writeSync(fd, data, offset, 8);
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      }
      return writeSync(fd, data, offset, length);
    },
    fsync(fd: number): void {
      if (io.fault === 'eio') throw Object.assign(new Error('i/o error'), { code: 'EIO' });
      fsyncSync(fd);
    },
    truncate: (fd: number, length: number) => ftruncateSync(fd, length),
    size: (fd: number) => fstatSync(fd).size,
    close: (fd: number) => closeSync(fd),
  } satisfies JournalIo & { fault: unknown };
  return io;
}

describe('a journal write the disk refuses', () => {
  it.each(['full', 'eio'] as const)(
    'is cut back (%s), not acknowledged, and written once the disk takes writes again',
    async (fault) => {
      const path = freshPath();
      const io = faultyIo();
      const file = new StateFile(path, HEADER, { io, warn: () => {} });
      file.load();
      file.append(subscription('acme', 's1'));
      await file.sync();

      io.fault = fault;
      file.append(subscription('acme', 's2'));
      await expect(file.sync()).rejects.toBeInstanceOf(StateWriteError);
      // The file holds whole lines only, ending with the last acknowledged write.
      const text = readFileSync(`${path}.journal`, 'utf8');
      const decoded = decodeLines<JournalRecord>(text, path);
      expect(decoded.tornTail).toBe(false);
      expect(decoded.records.slice(1)).toEqual([subscription('acme', 's1')]);
      expect(ids(reopenCopy(path), 'acme')).toEqual(['subscription:s1']);

      io.fault = null;
      file.append(subscription('acme', 's3'));
      await file.sync();
      expect(ids(reopenCopy(path), 'acme')).toEqual(['subscription:s1', 'subscription:s2', 'subscription:s3']);
      file.close();
    },
  );
});

describe('a journal torn by an earlier failure', () => {
  it('is cut back at start with a warning: the torn last line was never acknowledged', () => {
    const path = freshPath();
    const whole = encodeLine(HEADER) + encodeLine(subscription('acme', 's1'));
    writeFileSync(`${path}.journal`, `${whole}${encodeLine(subscription('acme', 's2')).slice(0, 20)}`);
    const warnings: string[] = [];
    const file = new StateFile(path, HEADER, { warn: (m) => warnings.push(m) });
    expect(file.load()).toMatchObject({ tornTail: true, salvaged: 0 });
    expect(warnings).toEqual([expect.stringMatching(/dropped a torn last line/)]);
    expect(readFileSync(`${path}.journal`, 'utf8')).toBe(whole);
    expect(ids(file, 'acme')).toEqual(['subscription:s1']);
    file.close();
  });

  it('keeps the whole record an older mock appended after a torn write, and rewrites the journal', () => {
    const path = freshPath();
    const torn = encodeLine(subscription('acme', 'lost')).slice(0, 25);
    writeFileSync(
      `${path}.journal`,
      encodeLine(HEADER) + torn + encodeLine(subscription('acme', 's2')) + encodeLine(subscription('acme', 's3')),
    );
    const file = new StateFile(path, HEADER, { warn: () => {} });
    expect(file.load()).toMatchObject({ tornTail: false, salvaged: 1 });
    expect(ids(file, 'acme')).toEqual(['subscription:s2', 'subscription:s3']);
    expect(decodeLines(readFileSync(`${path}.journal`, 'utf8'), path).records).toHaveLength(3);
    file.close();
  });

  it('refuses a line whose checksum holds but whose record is not a state record, naming the line', () => {
    const path = freshPath();
    writeFileSync(`${path}.journal`, encodeLine(HEADER) + encodeLine({ t: 'change', org: 'acme', entity: 'sku' }));
    const file = new StateFile(path, HEADER);
    expect(() => file.load()).toThrow(/\.journal: line 2 is not a state record: \/id \(/);
    // Refused without keeping the lock: the file can be moved away and the mock started again at once.
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe('compaction', () => {
  it('keeps live state only: no tombstone of an entity no seed holds, no attempt of a forgotten notification', () => {
    const path = freshPath();
    const file = new StateFile(path, HEADER);
    file.load();
    file.append(subscription('acme', 's1'));
    file.append(subscription('acme', 's2'));
    file.append(change('acme', 'subscription', 's1', null));
    file.append(change('acme', 'notification', 'n1', { id: 'n1', status: 'Failure' }));
    file.append(change('acme', 'attempt', 'n1/a1', { id: 'a1' }));
    file.append(change('acme', 'notification', 'n2', { id: 'n2', status: 'Pending' }));
    file.append(change('acme', 'attempt', 'n2/a1', { id: 'a1' }));
    file.append(change('acme', 'notification', 'n1', null));
    file.append(change('acme', 'sku', 'SKU-1', null));
    file.append(subscription('gone', 's1'));
    file.append({ t: 'reset', org: 'gone' });
    file.close();
    const snapshot = JSON.parse(readFileSync(path, 'utf8'));
    expect(Object.keys(snapshot.tenants)).toEqual(['acme']);
    // The removed SKU stays: a seeded entity, replay must remove it from the seeded world.
    expect(snapshot.tenants.acme.map((r: { entity: string; id: string }) => `${r.entity}:${r.id}`)).toEqual([
      'subscription:s2',
      'notification:n2',
      'attempt:n2/a1',
      'sku:SKU-1',
    ]);
  });

  it('runs beside the writes, in slices, and leaves a loadable pair before and after the journal is replaced', async () => {
    const path = freshPath();
    const file = new StateFile(path, HEADER, { compactAfterLines: 100, warn: () => {} });
    file.load();
    const TENANTS = 20;
    const PER_TENANT = 300;
    for (let t = 0; t < TENANTS; t++)
      for (let i = 0; i < PER_TENANT; i++) file.append(subscription(`org-${t}`, `s${i}`));
    await file.sync();
    const compaction = file.compaction;
    expect(compaction).not.toBeNull();
    // The whole journal as it stood when the compaction began: what a crash before its end would leave beside it.
    const journalAtMark = readFileSync(`${path}.journal`, 'utf8');

    // Writes go on while the snapshot is written; the event loop turns between its slices.
    let turns = 0;
    let written = 0;
    while (file.compaction) {
      file.append(subscription('during', `d${written++}`));
      await file.sync();
      turns++;
      if (turns > 10_000) throw new Error('compaction did not end');
    }
    await compaction;
    // More than one write was made durable while it ran: it is not one blocking step.
    expect(turns).toBeGreaterThan(1);

    // The journal now holds only what was written after the mark.
    const after = decodeLines<JournalRecord>(readFileSync(`${path}.journal`, 'utf8'), path).records;
    expect(after.length).toBeLessThanOrEqual(written + 1);
    const expected = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `subscription:${prefix}${i}`);
    for (const reopened of [
      reopenCopy(path),
      // The new snapshot beside the whole journal (a crash between the snapshot's rename and the journal's).
      reopenCopy(
        path,
        journalAtMark +
          after
            .slice(1)
            .map((r) => encodeLine(r))
            .join(''),
      ),
    ]) {
      expect(reopened.orgs()).toHaveLength(TENANTS + 1);
      expect(ids(reopened, 'org-7')).toEqual(expected(PER_TENANT, 's'));
      expect(ids(reopened, 'during')).toEqual(expected(written, 'd'));
      reopened.close();
    }
    file.close();
  });
});
