import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourcePaths } from './import-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DESIGN = 'docs/DESIGN.md';

/** The section headings of the design notes (`## Name`), as the sources cite them. */
function headings(markdown: string): Set<string> {
  return new Set(
    markdown
      .split('\n')
      .filter((line) => /^#{2,3} /.test(line))
      .map((line) => line.replace(/^#+ /, '').trim()),
  );
}

/**
 * Each citation of the design notes in a text: `(docs/DESIGN.md, "Section")`. A comment may wrap between the path
 * and the name, so a line break with its comment marker (`*` or `//`) may come between them.
 */
function citations(text: string): { section: string; line: number }[] {
  const found: { section: string; line: number }[] = [];
  for (const m of text.matchAll(/docs\/DESIGN\.md,\s*(?:(?:\*|\/\/)\s*)?"([^"\n]+)"/g))
    found.push({ section: m[1] ?? '', line: text.slice(0, m.index).split('\n').length });
  return found;
}

/** Mentions of "DESIGN" that are not the path of the notes: a citation of a file that is not there. */
function bareMentions(text: string): number[] {
  return [...text.matchAll(/\bDESIGN\b(?!\.md)/g)].map((m) => text.slice(0, m.index).split('\n').length);
}

const sections = headings(readFileSync(join(root, DESIGN), 'utf8'));
/** Every source but this file, whose own examples cite sections that do not exist on purpose. */
const sources = sourcePaths(root)
  .filter((path) => path !== 'test/architecture/design-citations.test.ts')
  .map((path) => ({ path, text: readFileSync(join(root, path), 'utf8') }));

describe(`the citations of ${DESIGN} in the sources`, () => {
  it('are many, and the notes have sections', () => {
    expect(sections.size).toBeGreaterThan(5);
    expect(sources.flatMap((f) => citations(f.text)).length).toBeGreaterThan(40);
  });

  it('each name a section heading the notes have', () => {
    const missing = sources.flatMap((f) =>
      citations(f.text)
        .filter((c) => !sections.has(c.section))
        .map((c) => `${f.path}:${c.line} cites "${c.section}"`),
    );
    expect(missing, `sections of ${DESIGN}: ${[...sections].join(' | ')}`).toEqual([]);
  });

  it('always give the path and a section, never a bare DESIGN', () => {
    const bare = sources.flatMap((f) => bareMentions(f.text).map((line) => `${f.path}:${line}`));
    expect(bare).toEqual([]);
  });

  it('are found in a wrapped comment, and a missing heading is reported', () => {
    const text = ['/** A rule (docs/DESIGN.md,', ' * "Shared sandbox") and (docs/DESIGN.md, "Nowhere"). */'].join('\n');
    expect(citations(text)).toEqual([
      { section: 'Shared sandbox', line: 1 },
      { section: 'Nowhere', line: 2 },
    ]);
    expect(sections.has('Nowhere')).toBe(false);
    expect(bareMentions('see DESIGN "Tenants"; docs/DESIGN.md is fine')).toEqual([1]);
  });
});
