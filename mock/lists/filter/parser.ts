import { FILTER_OPERATORS, VALUELESS_OPERATORS, type FilterOperator } from '../../../spec/lists/operators.js';
import { FILTER_PARSING_FAILED, fail, ok, type Result } from '../result.js';
import type { ConditionNode, FilterAst } from './ast.js';
import { tokenize, type Token } from './lexer.js';

/**
 * Parser for `filterBy` (syntax only; fields and values are checked by `compileFilterPlan`).
 *
 * Grammar (`&&` binds tighter than `||`; whitespace between tokens is ignored):
 * ```
 * expr      := and ('||' and)*
 * and       := primary ('&&' primary)*
 * primary   := '(' expr ')' | condition
 * condition := Field '[' Operator ']' value?
 * Field     := [A-Za-z_][A-Za-z0-9_.]*
 * ```
 * Operator names match case-insensitively (`equals`, `EQUALS`). IsNull/IsNotNull take no value (a value is an
 * error); every other operator needs a non-empty value (an empty quoted value `""` counts as empty).
 * Parentheses nest at most `MAX_FILTER_DEPTH` levels deep.
 *
 * Empty or whitespace-only text means "no filter" and parses to `null`.
 */
const MAX_FILTER_DEPTH = 64;

const OPERATOR_BY_LOWER = new Map<string, FilterOperator>(FILTER_OPERATORS.map((op) => [op.toLowerCase(), op]));
const VALUELESS = new Set<FilterOperator>(VALUELESS_OPERATORS);

/** Resolves an operator name ignoring case. */
function resolveOperator(name: string): FilterOperator | undefined {
  return OPERATOR_BY_LOWER.get(name.toLowerCase());
}

function describe(token: Token): string {
  switch (token.kind) {
    case 'end':
      return 'end of filter';
    case 'ident':
      return `'${token.text}'`;
    case 'value':
      return `value '${token.text}'`;
    case 'lparen':
      return "'('";
    case 'rparen':
      return "')'";
    case 'and':
      return "'&&'";
    case 'or':
      return "'||'";
    case 'lbracket':
      return "'['";
    case 'rbracket':
      return "']'";
  }
}

class ParseFailure {
  constructor(
    readonly pos: number,
    readonly detail: string,
    readonly extra: Record<string, string> = {},
  ) {}
}

class Parser {
  private index = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    return this.tokens[this.index] ?? this.tokens[this.tokens.length - 1]!;
  }

  private next(): Token {
    const token = this.peek();
    if (this.index < this.tokens.length - 1) this.index++;
    return token;
  }

  parseAll(): FilterAst {
    const ast = this.parseExpr(0);
    const token = this.peek();
    if (token.kind !== 'end') {
      if (token.kind === 'rparen')
        throw new ParseFailure(token.pos, `Unexpected ')' at position ${token.pos}: no matching '('`);
      throw new ParseFailure(
        token.pos,
        `Expected '&&', '||' or end of filter at position ${token.pos}, found ${describe(token)}`,
      );
    }
    return ast;
  }

  private parseExpr(depth: number): FilterAst {
    const children = [this.parseAnd(depth)];
    while (this.peek().kind === 'or') {
      this.next();
      children.push(this.parseAnd(depth));
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private parseAnd(depth: number): FilterAst {
    const children = [this.parsePrimary(depth)];
    while (this.peek().kind === 'and') {
      this.next();
      children.push(this.parsePrimary(depth));
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  }

  private parsePrimary(depth: number): FilterAst {
    const token = this.peek();
    if (token.kind === 'lparen') {
      if (depth >= MAX_FILTER_DEPTH) {
        throw new ParseFailure(token.pos, `Filter nests parentheses more than ${MAX_FILTER_DEPTH} levels deep`);
      }
      this.next();
      const inner = this.parseExpr(depth + 1);
      const close = this.next();
      if (close.kind !== 'rparen') {
        throw new ParseFailure(
          close.pos,
          `Expected ')' at position ${close.pos} to close '(' at position ${token.pos}, found ${describe(close)}`,
        );
      }
      return inner;
    }
    if (token.kind === 'ident') return this.parseCondition();
    throw new ParseFailure(
      token.pos,
      `Expected a condition 'Field[Operator]value' or '(' at position ${token.pos}, found ${describe(token)}`,
    );
  }

  private parseCondition(): ConditionNode {
    const field = this.next();
    if (field.kind !== 'ident') throw new ParseFailure(field.pos, `Expected a field name at position ${field.pos}`);
    const open = this.next();
    if (open.kind !== 'lbracket') {
      throw new ParseFailure(
        open.pos,
        `Expected '[' after field '${field.text}' at position ${open.pos}, found ${describe(open)}`,
        {
          field: field.text,
        },
      );
    }
    const opToken = this.next();
    if (opToken.kind !== 'ident') {
      throw new ParseFailure(
        opToken.pos,
        `Expected an operator name after '${field.text}[' at position ${opToken.pos}, found ${describe(opToken)}`,
        {
          field: field.text,
        },
      );
    }
    const operator = resolveOperator(opToken.text);
    if (!operator) {
      throw new ParseFailure(
        opToken.pos,
        `Unknown filter operator '${opToken.text}' at position ${opToken.pos}; expected one of ${FILTER_OPERATORS.join(', ')}`,
        {
          field: field.text,
          operator: opToken.text,
        },
      );
    }
    const close = this.next();
    if (close.kind !== 'rbracket') {
      throw new ParseFailure(
        close.pos,
        `Expected ']' after operator '${opToken.text}' at position ${close.pos}, found ${describe(close)}`,
        {
          field: field.text,
          operator: opToken.text,
        },
      );
    }
    const valueToken = this.peek();
    const value = valueToken.kind === 'value' ? valueToken.text : null;
    if (valueToken.kind === 'value') this.next();
    if (VALUELESS.has(operator)) {
      if (value !== null) {
        throw new ParseFailure(
          valueToken.pos,
          `Operator '${operator}' takes no value, but '${field.text}[${opToken.text}]' is followed by a value at position ${valueToken.pos}`,
          {
            field: field.text,
            operator,
          },
        );
      }
    } else if (value === null || value === '') {
      throw new ParseFailure(
        valueToken.pos,
        `Operator '${operator}' on field '${field.text}' needs a non-empty value (position ${valueToken.pos})`,
        {
          field: field.text,
          operator,
        },
      );
    }
    return { kind: 'condition', field: field.text, operator, value, position: field.pos };
  }
}

/** Parses `filterBy` text into a syntax tree; `null` for empty or whitespace-only text. Never throws. */
export function parseFilter(text: string): Result<FilterAst | null> {
  if (text.trim() === '') return ok(null);
  const tokens = tokenize(text);
  if (!tokens.ok) return tokens;
  try {
    return ok(new Parser(tokens.value).parseAll());
  } catch (e) {
    if (e instanceof ParseFailure) {
      return fail(FILTER_PARSING_FAILED, e.detail, { filterBy: text, position: String(e.pos), ...e.extra });
    }
    throw e;
  }
}
