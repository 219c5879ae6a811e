import { CATALOG_LINES } from './catalog-lines.js';
import { SECTIONS } from './sentences.js';

/** One sentence (or table row) of the API reference, verbatim, with the section it is in and the id the contract uses. */
export interface ReferenceSentence {
  readonly id: string;
  readonly section: string;
  readonly text: string;
}

type Sections = typeof SECTIONS;

/** The id of a quoted sentence (`auth.3.unauthenticated`). */
export type SentenceId = { [S in keyof Sections]: keyof Sections[S] }[keyof Sections];

/** The verbatim text of a quoted sentence. */
export type SentenceText = { [S in keyof Sections]: Sections[S][keyof Sections[S]] }[keyof Sections];

/** What a documented fact quotes: a sentence by its id or its text (both checked by the compiler), or a catalog line. */
export type Quote = SentenceId | SentenceText | ReferenceSentence;

const CATALOG_SECTION = 'Errors / Error code catalog';

/** `**`COMMON.QUERY.`** FILTER_PARSING_FAILED, ...` -> `COMMON.QUERY.` */
function prefixOfLine(line: string): string {
  const prefix = /^\*\*`([A-Z0-9_.]+)`\*\*/.exec(line)?.[1];
  if (!prefix) throw new Error(`not a catalog line: ${line}`);
  return prefix;
}

/** Every sentence the contract may quote: the table of `sentences.ts`, then the 74 catalog lines (id `catalog.<PREFIX>`). */
const REFERENCE_SENTENCES: readonly ReferenceSentence[] = Object.freeze([
  ...Object.entries(SECTIONS).flatMap(([section, sentences]) =>
    Object.entries(sentences).map(([id, text]): ReferenceSentence => Object.freeze({ id, section, text })),
  ),
  ...CATALOG_LINES.map(
    (text): ReferenceSentence => Object.freeze({ id: `catalog.${prefixOfLine(text)}`, section: CATALOG_SECTION, text }),
  ),
]);

const BY_ID = new Map(REFERENCE_SENTENCES.map((s) => [s.id, s]));
const BY_TEXT = new Map(REFERENCE_SENTENCES.map((s) => [s.text, s]));

/** The sentence a quote names; throws for a text or id the table does not hold (a programming error). */
export function referenceSentence(quote: Quote): ReferenceSentence {
  const key = typeof quote === 'string' ? quote : quote.text;
  const found = BY_ID.get(key) ?? BY_TEXT.get(key);
  if (!found || (typeof quote !== 'string' && (found.section !== quote.section || found.id !== quote.id)))
    throw new Error(`not a sentence of the reference table: ${key}`);
  return found;
}

/** The catalog line of a prefix (`COMMON.QUERY.`), quoted by the catalog entries of its codes. */
export function catalogLine(prefix: string): ReferenceSentence {
  const found = BY_ID.get(`catalog.${prefix}`);
  if (!found) throw new Error(`no catalog line for ${prefix}`);
  return found;
}
