import { crc32 } from 'node:zlib';
import { StateFileError } from '../store/records.js';

/** Encodes a journal record as one line: `<crc32 hex> <json>\n`, so a corrupt line is detected, not misread. */
export function encodeLine(record: unknown): string {
  const json = JSON.stringify(record);
  return `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`;
}

/**
 * Decodes the journal text. A torn LAST line (a crash while appending a write that was never acknowledged) is
 * dropped and reported; a bad line anywhere else is corruption and throws.
 */
export function decodeLines<T>(text: string, file: string): { records: T[]; tornTail: boolean } {
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  if (complete) lines.pop();
  const records: T[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const last = i === lines.length - 1;
    const decoded = decodeLine<T>(line);
    if (decoded.ok) {
      records.push(decoded.value);
      continue;
    }
    if (last && !complete) return { records, tornTail: true };
    throw new StateFileError(
      `${file}: line ${i + 1} is corrupt (${decoded.reason}); refusing to start with partial state. Move the file away to start empty.`,
    );
  }
  return { records, tornTail: false };
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
