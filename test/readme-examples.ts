import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A fenced code block of the README: its language, the file its info string names (`title="path"`), its text. */
interface ShownFile {
  readonly language: string;
  readonly title: string | null;
  /** The lines between the fences, each ending with a newline, as a file's text ends. */
  readonly code: string;
}

const HEADING = /^(#{1,6}) /;
const FENCE = /^```/;

/**
 * The fenced blocks of one section of a markdown text: from the heading named `heading` to the next heading of the
 * same or a higher level (a `#` line inside a block is code, not a heading). Null when there is no such heading.
 */
export function sectionBlocks(markdown: string, heading: string): ShownFile[] | null {
  const lines = markdown.split('\n');
  const at = lines.indexOf(heading);
  const level = HEADING.exec(heading)?.[1]?.length;
  if (at < 0 || level === undefined) return null;
  const blocks: ShownFile[] = [];
  let open: { info: string; lines: string[] } | null = null;
  for (const line of lines.slice(at + 1)) {
    if (open === null) {
      const deeper = HEADING.exec(line)?.[1]?.length;
      if (deeper !== undefined && deeper <= level) break;
      if (FENCE.test(line)) open = { info: line.slice(3).trim(), lines: [] };
    } else if (line === '```') {
      const title = /\btitle="([^"]+)"/.exec(open.info)?.[1] ?? null;
      const language = open.info.split(/\s+/)[0] ?? '';
      blocks.push({ language, title, code: open.lines.map((l) => `${l}\n`).join('') });
      open = null;
    } else open.lines.push(line);
  }
  return blocks;
}

/** Every file under a folder, as paths relative to `root`, sorted. */
export function filesUnder(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}
