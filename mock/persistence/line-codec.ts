import { crc32 } from 'node:zlib';
import { StateFileError } from '../store/records.js';

/** Encodes a journal record as one line: `<crc32 hex> <json>\n`, so a corrupt line is detected, not misread. */
export function encodeLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/** What the journal text held: its records in order, and what was dropped as never acknowledged. */
interface DecodedLines<T> {
  readonly records: T[];
  /** The last line was torn (a crash or a failed write while appending a write that was never acknowledged). */
  readonly tornTail: boolean;
  /** Lines that began with a torn write and went on with a whole record, which was kept (see `salvage`). */
  readonly salvaged: number;
}

/**
 * Decodes the journal text. A torn LAST line (a crash while appending a write that was never acknowledged) is
 * dropped and reported. A line that begins with a torn write and ends with a whole checksummed record (a journal of an
 * older mock that went on appending after a full disk) keeps that record. Any other bad line is corruption and throws.
 */
export function decodeLines<T>(text: string, file: string): DecodedLines<T> {
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete) lines.pop();
  const records: T[] = [];
  let salvaged = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const last = i === lines.length - 1;
    const decoded = decodeLine<T>(line);
    if (decoded.ok) {
      records.push(decoded.value);
      continue;
    }
    if (last && !complete) return { records, tornTail: true, salvaged };
    const rest = salvage<T>(line);
    if (rest) {
      records.push(rest.value);
      salvaged++;
      continue;
    }
    throw new StateFileError(
      `${file}: line ${i + 1} is corrupt (${decoded.reason}); refusing to start with partial state. Move the file away to start empty.`,
    );
  }
  return { records, tornTail: false, salvaged };
}

/**
 * The whole record at the end of a line whose beginning is a torn write (the checksum of the rest matches), or null.
 * A bit flipped inside a record leaves no such suffix, so this never takes corruption for a record.
 */
function salvage<T>(line: string): { value: T } | null {
  const starts = /[0-9a-f]{8} \{/g;
  for (let m = starts.exec(line); m; m = starts.exec(line)) {
    if (m.index === 0) continue;
    const decoded = decodeLine<T>(line.slice(m.index));
    if (decoded.ok) return { value: decoded.value };
  }
  return null;
}

function decodeLine<T>(line: string): { ok: true; value: T } | { ok: false; reason: string } {
  const m = /^([0-9a-f]{8}) (.*)$/.exec(line);
  if (!m?.[1] || m[2] === undefined) return { ok: false, reason: 'malformed line' };
  if (crc32(m[2]).toString(16).padStart(8, '0') !== m[1]) return { ok: false, reason: 'checksum mismatch' };
  try {
    return { ok: true, value: JSON.parse(m[2]) as T };
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
}
