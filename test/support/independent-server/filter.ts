import { ApiProblem } from './problems.js';

/**
 * `filterBy` expressions (List and search endpoints: `Field[Operator]value`, `&&`, `||`, parentheses), parsed by
 * recursive descent and evaluated against the JSON view of each item.
 */
export type FieldKind = 'string' | 'number' | 'date' | 'boolean';

/** Filterable and sortable fields of a list: JSON property name → kind. */
export type FieldSchema = Readonly<Record<string, FieldKind>>;

const OPERATORS: Readonly<Record<FieldKind, readonly string[]>> = {
  string: ['Contains', 'Equals', 'StartsWith', 'EndsWith', 'IsNull', 'IsNotNull'],
  number: ['Equals', 'Gt', 'Gte', 'Lt', 'Lte', 'IsNull', 'IsNotNull'],
  date: ['IsAfter', 'IsOnOrAfter', 'IsBefore', 'IsOnOrBefore', 'Equals', 'IsNull', 'IsNotNull'],
  boolean: ['Equals'],
};

/** Every operator of the reference's operator table, used to tell an unknown operator from an unsupported one. */
const ALL_OPERATORS = [...new Set(Object.values(OPERATORS).flat())];

const MAX_DEPTH = 32;
const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

type Operand = string | number | boolean | null;
type FilterNode =
  | { kind: 'and' | 'or'; items: FilterNode[] }
  | { kind: 'always' }
  | { kind: 'test'; field: string; fieldKind: FieldKind; op: string; operand: Operand };

interface FilterOptions {
  /** Fault 'filter-unknown-column-accepted': a condition on an unknown field is dropped instead of refused. */
  ignoreUnknownFields: boolean;
  /** Fault 'contains-as-equals'. */
  containsAsEquals: boolean;
}

function refuse(expression: string, why: string): ApiProblem {
  return ApiProblem.coded('COMMON.QUERY.FILTER_PARSING_FAILED', `cannot use filterBy: ${why}`, {
    filterBy: expression,
  });
}

/** Instant of a date operand; a date or date-time without offset is read as UTC. */
function parseInstant(text: string): number | undefined {
  if (!ISO_DATE.test(text)) return undefined;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) && text.length > 10;
  const normalised = text.replace(' ', 'T');
  const ms = Date.parse(hasOffset || text.length === 10 ? normalised : `${normalised}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n += 1;
  return n;
}

/** Finds a field by JSON property name, ignoring case (this server's choice). */
export function resolveField(schema: FieldSchema, name: string): string | undefined {
  const lower = name.toLowerCase();
  return Object.keys(schema).find((key) => key.toLowerCase() === lower);
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly schema: FieldSchema,
    private readonly options: FilterOptions,
  ) {}

  parse(): FilterNode {
    const node = this.parseOr();
    this.skipSpace();
    if (this.pos < this.text.length) throw refuse(this.text, `unexpected '${this.text[this.pos]}' at ${this.pos}`);
    return node;
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && /\s/.test(this.text[this.pos] ?? '')) this.pos += 1;
  }

  private take(token: string): boolean {
    this.skipSpace();
    if (this.text.startsWith(token, this.pos)) {
      this.pos += token.length;
      return true;
    }
    return false;
  }

  private parseOr(): FilterNode {
    const items = [this.parseAnd()];
    while (this.take('||')) items.push(this.parseAnd());
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private parseAnd(): FilterNode {
    const items = [this.parsePrimary()];
    while (this.take('&&')) items.push(this.parsePrimary());
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private parsePrimary(): FilterNode {
    if (this.take('(')) {
      this.depth += 1;
      if (this.depth > MAX_DEPTH) throw refuse(this.text, 'parentheses nested too deeply');
      const node = this.parseOr();
      if (!this.take(')')) throw refuse(this.text, `missing ')' at ${this.pos}`);
      this.depth -= 1;
      return node;
    }
    return this.parseCondition();
  }

  private parseCondition(): FilterNode {
    this.skipSpace();
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos))?.[0];
    if (!name) throw refuse(this.text, `expected a field name at ${this.pos}`);
    this.pos += name.length;
    if (!this.take('[')) throw refuse(this.text, `expected '[' after ${name}`);
    const close = this.text.indexOf(']', this.pos);
    if (close < 0) throw refuse(this.text, `missing ']' after ${name}[`);
    const opText = this.text.slice(this.pos, close).trim();
    this.pos = close + 1;
    const value = this.readValue();
    const op = ALL_OPERATORS.find((o) => o.toLowerCase() === opText.toLowerCase());
    if (!op) throw refuse(this.text, `unknown operator '${opText}'`);
    const field = resolveField(this.schema, name);
    if (!field) {
      if (this.options.ignoreUnknownFields) return { kind: 'always' };
      throw refuse(this.text, `no field named '${name}'`);
    }
    const fieldKind = this.schema[field]!;
    if (!OPERATORS[fieldKind].includes(op)) throw refuse(this.text, `operator ${op} does not apply to ${field}`);
    return { kind: 'test', field, fieldKind, op, operand: this.operand(fieldKind, op, value) };
  }

  /** The value runs to the next `&&`, `||` or the end; unbalanced trailing `)` close open groups. */
  private readValue(): string {
    const rest = this.text.slice(this.pos);
    const ends = [rest.indexOf('&&'), rest.indexOf('||'), rest.length].filter((i) => i >= 0);
    let value = rest.slice(0, Math.min(...ends)).trimEnd();
    let open = this.depth;
    while (open > 0 && value.endsWith(')') && count(value, ')') > count(value, '(')) {
      value = value.slice(0, -1).trimEnd();
      open -= 1;
    }
    this.pos += value.length;
    return value.trim();
  }

  private operand(kind: FieldKind, op: string, value: string): Operand {
    if (op === 'IsNull' || op === 'IsNotNull') return null;
    if (kind === 'number') {
      if (!NUMBER.test(value)) throw refuse(this.text, `'${value}' is not a number`);
      return Number(value);
    }
    if (kind === 'date') {
      const instant = parseInstant(value);
      if (instant === undefined) throw refuse(this.text, `'${value}' is not an ISO 8601 date`);
      return instant;
    }
    if (kind === 'boolean') {
      const lower = value.toLowerCase();
      if (lower !== 'true' && lower !== 'false') throw refuse(this.text, `'${value}' is not true or false`);
      return lower === 'true';
    }
    return value;
  }
}

/** Parses a filter; an empty expression filters nothing. Throws 400 COMMON.QUERY.FILTER_PARSING_FAILED. */
export function parseFilter(text: string, schema: FieldSchema, options: FilterOptions): FilterNode {
  if (text.trim() === '') return { kind: 'always' };
  return new Parser(text, schema, options).parse();
}

function testValue(node: Extract<FilterNode, { kind: 'test' }>, raw: unknown, options: FilterOptions): boolean {
  const missing = raw === null || raw === undefined;
  if (node.op === 'IsNull') return missing;
  if (node.op === 'IsNotNull') return !missing;
  if (missing) return false;
  const operand = node.operand;
  if (node.fieldKind === 'string' && typeof raw === 'string' && typeof operand === 'string') {
    if (node.op === 'Equals') return raw === operand;
    if (node.op === 'Contains') return options.containsAsEquals ? raw === operand : raw.includes(operand);
    if (node.op === 'StartsWith') return raw.startsWith(operand);
    if (node.op === 'EndsWith') return raw.endsWith(operand);
    return false;
  }
  if (node.fieldKind === 'boolean') return raw === operand;
  const value = node.fieldKind === 'date' && typeof raw === 'string' ? Date.parse(raw) : raw;
  if (typeof value !== 'number' || typeof operand !== 'number') return false;
  switch (node.op) {
    case 'Equals':
      return value === operand;
    case 'Gt':
    case 'IsAfter':
      return value > operand;
    case 'Gte':
    case 'IsOnOrAfter':
      return value >= operand;
    case 'Lt':
    case 'IsBefore':
      return value < operand;
    case 'Lte':
    case 'IsOnOrBefore':
      return value <= operand;
    default:
      return false;
  }
}

/** Whether an item's JSON view satisfies the filter. */
export function matches(node: FilterNode, item: Readonly<Record<string, unknown>>, options: FilterOptions): boolean {
  switch (node.kind) {
    case 'always':
      return true;
    case 'and':
      return node.items.every((child) => matches(child, item, options));
    case 'or':
      return node.items.some((child) => matches(child, item, options));
    default:
      return testValue(node, item[node.field], options);
  }
}
