import { describe, expect, it } from 'vitest';
import { ERROR_CODE_GROUPS } from '../errors/codes.js';
import { catalogLine, referenceSentence, type SentenceId } from '../reference/index.js';
import { CATALOG_LINES } from '../reference/catalog-lines.js';
import { SECTIONS } from '../reference/sentences.js';
import { committedDocument } from './load.js';

/** Every sentence of the table, as the contract finds them: those of sentences.ts by id, then each prefix's line. */
const REFERENCE_SENTENCES = [
  ...Object.values(SECTIONS).flatMap((sentences) =>
    Object.keys(sentences).map((id) => referenceSentence(id as SentenceId)),
  ),
  ...ERROR_CODE_GROUPS.map((group) => catalogLine(group.prefix)),
];
const BY_TEXT = new Map(REFERENCE_SENTENCES.map((s) => [s.text, s]));
/** The table's sentence with this exact text, or undefined. */
const sentenceWithText = (text: string) => BY_TEXT.get(text);

const doc = committedDocument() as Record<string, any>;

/** A provenance key (`x-provenance`, `x-permission-provenance`...) and the prefix of its sibling keys. */
const PROVENANCE_KEY = /^x-(?:(.+)-)?provenance$/;

interface DocumentedFact {
  where: string;
  key: string;
  quote: unknown;
  section: unknown;
}

/** Every documented fact of the document: each node's `x-provenance: documented` and each prefixed one, at any depth. */
function documentedFacts(node: unknown, where = '#', out: DocumentedFact[] = []): DocumentedFact[] {
  if (Array.isArray(node)) for (const [i, item] of node.entries()) documentedFacts(item, `${where}/${i}`, out);
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return out;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    const match = PROVENANCE_KEY.exec(key);
    if (match && value === 'documented') {
      const prefix = match[1] ? `${match[1]}-` : '';
      const n = node as Record<string, unknown>;
      out.push({
        where,
        key,
        quote: n[`x-${prefix}reference-quote`],
        section: n[`x-${prefix}reference-section`],
      });
    }
    documentedFacts(value, `${where}/${key}`, out);
  }
  return out;
}

const facts = documentedFacts(doc);

describe('every documented fact quotes the reference', () => {
  it('lists the documented facts of the document: operations, responses, fields, parameters, catalog entries', () => {
    expect(facts.length).toBeGreaterThan(800);
    const where = new Set(facts.map((f) => `${f.where} ${f.key}`));
    for (const fact of [
      '#/paths//v1/access/apiKeys/post x-provenance',
      '#/paths//v1/access/apiKeys/post x-permission-provenance',
      '#/paths//v1/access/apiKeys/post/responses/201 x-body-provenance',
      '#/paths//v1/access/apiKeys/post/responses/401 x-provenance',
      '#/components/schemas/ApiKey/properties/key x-provenance',
      '#/components/parameters/PageSize x-provenance',
      '#/x-error-catalog/0 x-provenance',
      '#/x-error-catalog/0 x-status-provenance',
    ])
      expect(where, fact).toContain(fact);
    expect(facts.filter((f) => /^#\/x-error-catalog\/\d+$/.test(f.where) && f.key === 'x-provenance')).toHaveLength(
      478,
    );
  });

  it('gives each one an x-reference-quote that is a sentence of the table, with the section it is in', () => {
    const unquoted = facts.filter((f) => typeof f.quote !== 'string').map((f) => `${f.where} ${f.key}`);
    expect(unquoted).toEqual([]);
    const unknown = facts
      .filter((f) => sentenceWithText(f.quote as string) === undefined)
      .map((f) => `${f.where} ${f.key}: ${String(f.quote)}`);
    expect(unknown).toEqual([]);
    const misplaced = facts
      .filter((f) => sentenceWithText(f.quote as string)?.section !== f.section)
      .map((f) => `${f.where} ${f.key}: ${String(f.section)}`);
    expect(misplaced).toEqual([]);
  });

  it('quotes no sentence for an inferred fact: an inferred one carries a rationale instead', () => {
    const stray: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const match = /^x-(?:(.+)-)?reference-quote$/.exec(key);
        const prefix = match?.[1] ? `${match[1]}-` : '';
        if (match && (node as Record<string, unknown>)[`x-${prefix}provenance`] !== 'documented')
          stray.push(`${where} ${key}`);
        walk(value, `${where}/${key}`);
      }
    };
    walk(doc, '#');
    expect(stray).toEqual([]);
  });

  it('quotes every sentence of the table somewhere (the table holds only quoted sentences)', () => {
    // Besides the facts' own quotes, a catalog description restating a condition quotes it (x-text-condition-quote).
    const conditions = doc['x-error-catalog']
      .map((e: Record<string, string>) => e['x-text-condition-quote'])
      .filter((q: string | undefined) => q !== undefined);
    const quoted = new Set([...facts.map((f) => f.quote), ...conditions]);
    expect(REFERENCE_SENTENCES.filter((s) => !quoted.has(s.text)).map((s) => s.id)).toEqual([]);
  });

  it('quotes the catalog line of its prefix on each catalog entry, and the row of its pair on each documented status', () => {
    for (const entry of doc['x-error-catalog']) {
      const prefix = entry.code.slice(0, entry.code.lastIndexOf('.') + 1);
      expect(entry['x-reference-quote'], entry.code).toMatch(
        new RegExp(`^\\*\\*\`${prefix.replace(/\./g, '\\.')}\`\\*\\* `),
      );
      expect(entry['x-reference-quote'].split('** ')[1].split(/, | \(/), entry.code).toContain(
        entry.code.slice(prefix.length),
      );
      if (entry['x-status-provenance'] === 'documented')
        expect(entry['x-status-reference-quote'], entry.code).toMatch(
          new RegExp(`^\\| ${entry.status} \\| \`${entry.code.replace(/\./g, '\\.')}\` \\| `),
        );
    }
  });
});

describe('the table of quoted sentences', () => {
  it('holds each sentence once under a unique id, in a named section', () => {
    expect(new Set(REFERENCE_SENTENCES.map((s) => s.id)).size).toBe(REFERENCE_SENTENCES.length);
    expect(new Set(REFERENCE_SENTENCES.map((s) => s.text)).size).toBe(REFERENCE_SENTENCES.length);
    for (const s of REFERENCE_SENTENCES) expect(s.section.length, s.id).toBeGreaterThan(3);
  });

  it('writes rows as the reference writes them and sentences without the number of their point', () => {
    for (const s of REFERENCE_SENTENCES) {
      expect(s.text, s.id).toBe(s.text.trim());
      expect(s.text, s.id).not.toMatch(/^(\d+\. |#|- )/);
      if (s.text.startsWith('|')) expect(s.text, s.id).toMatch(/^\| .* \|$/);
    }
  });

  it('holds the 74 catalog lines, which agree with the prefixes and suffixes of spec/errors/codes.ts', () => {
    expect(CATALOG_LINES).toEqual(
      ERROR_CODE_GROUPS.map(
        (g) => `**\`${g.prefix}\`** ${g.suffixes.join(', ')}${'note' in g && g.note ? ` (${g.note})` : ''}`,
      ),
    );
  });
});
