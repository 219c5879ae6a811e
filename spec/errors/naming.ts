import { ERROR_CODE_GROUPS, type ErrorCode } from './codes.js';

/** The two parts of an error code: its prefix (ending with a dot) and its suffix. */
export interface CodeParts {
  /** For example `PLANNING.PURCHASE_ORDER.` */
  readonly prefix: string;
  /** For example `CANNOT_MODIFY_CANCELLED_LINE` */
  readonly suffix: string;
  /** First segment of the prefix, for example `PLANNING`. */
  readonly domain: string;
  /** Second segment of the prefix, for example `PURCHASE_ORDER`. */
  readonly entity: string;
}

const PARTS = new Map<string, CodeParts>();
for (const group of ERROR_CODE_GROUPS) {
  const [domain = '', entity = ''] = group.prefix.split('.');
  for (const suffix of group.suffixes) {
    PARTS.set(group.prefix + suffix, { prefix: group.prefix, suffix, domain, entity });
  }
}

/** Splits a catalog code into prefix and suffix, as the catalog groups them. */
export function codeParts(code: ErrorCode): CodeParts {
  const parts = PARTS.get(code);
  if (!parts) throw new Error(`Not a catalog error code: ${code}`);
  return parts;
}

/** Words kept in upper case (or in a fixed spelling) when a code name is turned into text. */
const WORD_SPELLING: Readonly<Record<string, string>> = {
  SKU: 'SKU',
  SKUS: 'SKUs',
  AI: 'AI',
  URL: 'URL',
  BOM: 'BOM',
  ID: 'ID',
};

/** Turns UPPER_SNAKE words into lower-case text, keeping acronyms: `BOM_CONTAINS_CYCLE` -> `BOM contains cycle`. */
export function words(upperSnake: string): string {
  return upperSnake
    .split('_')
    .filter((w) => w.length > 0)
    .map((w) => WORD_SPELLING[w] ?? w.toLowerCase())
    .join(' ');
}

/** Capitalises the first letter: `filter parsing failed` -> `Filter parsing failed`. */
export function capitalise(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}
