import { FILTER_PARSING_FAILED, fail, ok, type Result } from '../result.js';

/**
 * Tokenizer for `filterBy`.
 *
 * Tokens: `(`, `)`, `&&`, `||`, `[`, `]`, identifiers (`[A-Za-z_][A-Za-z0-9_.]*`, used for field and operator names)
 * and values. Whitespace between tokens is ignored.
 *
 * A value is read right after every `]` (the grammar only allows `]` to close an operator):
 * - a double-quoted string (leading whitespace skipped) with `\"` and `\\` escapes; any other escape is an error.
 *   It may contain `&&`, `||`, parentheses and brackets. What follows the closing quote is tokenized normally.
 * - otherwise an unquoted value, running until `&&`, `||`, a `)` while a parenthesis is open, or the end of the
 *   text, then trimmed. An unquoted value may contain single `&`/`|`, brackets, quotes (not leading) and, when no
 *   parenthesis is open, `)`. An empty unquoted value produces no value token.
 *
 * A lone `&` or `|` outside a value is an error.
 */
export type Token =
  | { readonly kind: 'lparen' | 'rparen' | 'and' | 'or' | 'lbracket' | 'rbracket' | 'end'; readonly pos: number }
  | { readonly kind: 'ident'; readonly pos: number; readonly text: string }
  | { readonly kind: 'value'; readonly pos: number; readonly text: string; readonly quoted: boolean };

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 46;
}

function lexError(input: string, pos: number, detail: string): Result<never> {
  return fail(FILTER_PARSING_FAILED, detail, { filterBy: input, position: String(pos) });
}

export function tokenize(input: string): Result<Token[]> {
  const tokens: Token[] = [];
  const n = input.length;
  let i = 0;
  let depth = 0;
  let valueNext = false;

  while (true) {
    if (valueNext) {
      valueNext = false;
      let k = i;
      while (k < n && isSpace(input.charCodeAt(k))) k++;
      if (k < n && input.charCodeAt(k) === 34 /* " */) {
        let text = '';
        let j = k + 1;
        let closed = false;
        while (j < n) {
          const c = input[j];
          if (c === '"') {
            closed = true;
            j++;
            break;
          }
          if (c === '\\') {
            const next = input[j + 1];
            if (next === '"' || next === '\\') {
              text += next;
              j += 2;
              continue;
            }
            return lexError(
              input,
              j,
              `Invalid escape sequence at position ${j}: only \\" and \\\\ are allowed in quoted values`,
            );
          }
          text += c;
          j++;
        }
        if (!closed) return lexError(input, k, `Unterminated quoted value starting at position ${k}`);
        tokens.push({ kind: 'value', pos: k, text, quoted: true });
        i = j;
        continue;
      }
      let j = i;
      while (j < n) {
        const c = input.charCodeAt(j);
        if ((c === 38 || c === 124) && input.charCodeAt(j + 1) === c) break; // && or ||
        if (c === 41 /* ) */ && depth > 0) break;
        j++;
      }
      const raw = input.slice(i, j);
      const text = raw.trim();
      if (text !== '') tokens.push({ kind: 'value', pos: i + raw.indexOf(text), text, quoted: false });
      i = j;
      continue;
    }

    while (i < n && isSpace(input.charCodeAt(i))) i++;
    if (i >= n) {
      tokens.push({ kind: 'end', pos: n });
      return ok(tokens);
    }
    const c = input.charCodeAt(i);
    const pos = i;
    switch (c) {
      case 40: // (
        tokens.push({ kind: 'lparen', pos });
        depth++;
        i++;
        continue;
      case 41: // )
        tokens.push({ kind: 'rparen', pos });
        if (depth > 0) depth--;
        i++;
        continue;
      case 91: // [
        tokens.push({ kind: 'lbracket', pos });
        i++;
        continue;
      case 93: // ]
        tokens.push({ kind: 'rbracket', pos });
        i++;
        valueNext = true;
        continue;
      case 38: // &
      case 124: // |
        if (input.charCodeAt(i + 1) === c) {
          tokens.push({ kind: c === 38 ? 'and' : 'or', pos });
          i += 2;
          continue;
        }
        return lexError(
          input,
          pos,
          `Unexpected '${input[i]}' at position ${pos}: use '&&' or '||' to combine conditions`,
        );
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(input.charCodeAt(j))) j++;
      tokens.push({ kind: 'ident', pos, text: input.slice(i, j) });
      i = j;
      continue;
    }
    return lexError(input, pos, `Unexpected character '${input[i]}' at position ${pos}`);
  }
}
