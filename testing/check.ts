import type { TObject, TSchema } from '@sinclair/typebox';
import { Value, ValueErrorType, type ValueError } from '@sinclair/typebox/value';

/** What a value must be, in words, carried by a schema for the error messages (an extra TypeBox keyword). */
export const expects = (words: string) => ({ expects: words });

/** A value as an error message shows it. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Set) return 'a Set';
  if (value instanceof RegExp) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Errors about the kind of a value (TypeError); every other failed keyword is about its range (RangeError). */
const TYPE_ERRORS = new Set<ValueErrorType>([
  ValueErrorType.Integer,
  ValueErrorType.Number,
  ValueErrorType.String,
  ValueErrorType.Boolean,
  ValueErrorType.Array,
  ValueErrorType.Object,
  ValueErrorType.Union,
]);

/** `/faults/0` as `faults[0]`. */
const label = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');

/** The most precise error: inside a union, the error of the member of the value's own kind (a string, an array). */
function precise(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union) return error;
  const members = (error.schema as TSchema & { anyOf?: TSchema[] }).anyOf ?? [];
  const kind = Array.isArray(error.value) ? 'array' : typeof error.value;
  const own = members.find((m) => m.type === kind);
  const inner = own ? Value.Errors(own, error.value).First() : undefined;
  return inner ? precise({ ...inner, path: `${error.path}${inner.path}` }) : error;
}

/** How a checked object is named in errors: `startMock` and `option`, `t.token` and `field`. */
interface Checked {
  readonly where: string;
  readonly noun: string;
  /** Names a user may reach for, and the one meant. */
  readonly meant?: Readonly<Record<string, string>>;
}

/** Edit distance of two names (insertions, deletions, substitutions), ignoring case. */
function distance(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[y.length]!;
}

/** The known name a typo most likely meant: within two edits (as commander suggests for flags), else none. */
function nearest(name: string, known: readonly string[]): string | undefined {
  const scored = known.map((k) => ({ k, d: distance(name, k) })).sort((a, b) => a.d - b.d);
  return scored[0] && scored[0].d <= 2 ? scored[0].k : undefined;
}

/**
 * Checks an object against a closed TypeBox schema (properties left undefined count as absent): an unknown name or
 * a value of the wrong kind throws a TypeError, a value out of range a RangeError, each naming the property and
 * saying what it must be. Returns the object without its undefined properties.
 */
export function checkObject(schema: TObject, input: unknown, named: Checked): Record<string, unknown> {
  const { where, noun } = named;
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input))
    throw new TypeError(`${where}: expected an object of ${noun}s, got ${shown(input)}`);
  const given = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const known = Object.keys(schema.properties);
  for (const name of Object.keys(given)) {
    if (known.includes(name)) continue;
    const meant = named.meant?.[name] ?? nearest(name, known);
    const hint = meant ? `did you mean ${meant}? ` : '';
    throw new TypeError(`${where}: unknown ${noun} ${name}; ${hint}known: ${known.join(', ')}`);
  }
  const first = Value.Errors(schema, given).First();
  if (first) {
    const error = precise(first);
    const words = (error.schema as TSchema & { expects?: string }).expects ?? error.message;
    const text = `${where}: ${noun} ${label(error.path)} must be ${words}, got ${shown(error.value)}`;
    throw TYPE_ERRORS.has(error.type) ? new TypeError(text) : new RangeError(text);
  }
  return given;
}
