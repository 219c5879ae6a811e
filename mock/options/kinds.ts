import type { DurationUnit } from '../../common/duration.js';

/**
 * The kinds of value a mock option takes (mock/options.ts). A kind says how the value is written and its bounds;
 * each consumer reads every kind its own way and never an option by name: the CLI (a flag and its `OPSAPI_*`
 * variable, cli/commands/mock-flags.ts) and `startMock` (a checked option, testing/options.ts).
 */

/** A parser's answer: the value, or one line saying why the text is refused. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

declare const READS: unique symbol;

/**
 * The type of value a kind stands for, as a type only (nothing is stored under it). A method, so that a kind of
 * `Rate | null` is still a kind of `unknown`, and read back exactly (`DecisionFile | undefined` keeps its undefined).
 */
interface Reads<V> {
  [READS]?(value: V): V;
}

/** A whole number within bounds (`--port`, `--skus`); `unit` is named to `startMock` users, e.g. `MB`. */
export interface IntegerKind<V extends number | null = number> extends Reads<V> {
  readonly kind: 'integer';
  readonly min: number;
  readonly max: number;
  readonly unit: string | null;
}

/** A duration in common/duration.ts's grammar, kept as a whole number of `into` units from `min` to `max` of them. */
export interface DurationKind extends Reads<number> {
  readonly kind: 'duration';
  /** The unit of a bare number (the flag's historical one). */
  readonly unitless: DurationUnit;
  readonly into: DurationUnit;
  readonly min: number;
  readonly max: number;
}

/** Text taken as written (`--host`, `--jwt-secret`); `startMock` refuses an empty one, or one off `pattern`. */
export interface TextKind<V> extends Reads<V> {
  readonly kind: 'text';
  /** What the value must be, in words (`startMock`'s errors: "option host must be ..."). */
  readonly expects: string;
  readonly pattern: string | null;
}

/** A file path: the CLI and `startMock` read or check the file it names before anything starts. */
export interface PathKind<V> extends Reads<V> {
  readonly kind: 'path';
  readonly expects: string;
}

/** Text in a grammar of its own (`300/1s`, `50-200ms`), read by `parse` and written back by `format`. */
export interface ParsedKind<V> extends Reads<V> {
  readonly kind: 'parsed';
  parse(text: string): Parsed<V>;
  format(value: V): string;
  readonly expects: string;
  /** In process, the value may also be given as an array of numbers (`retrySchedule: [0, 5]`). */
  readonly numbers: NumberList | null;
}

/** An array of numbers `startMock` takes for a parsed option: at least one, each at least `min`. */
export interface NumberList {
  readonly min: number;
  /** What each number is, in words. */
  readonly item: string;
  /** The words of the union, string or array. */
  readonly expects: string;
}

/** On or off: a flag without a value (`--log-requests`, or `--no-admin` for an option on by default). */
export interface SwitchKind extends Reads<boolean> {
  readonly kind: 'switch';
  readonly expects: string;
}

/** A repeatable flag whose items add up (`--fault a --fault b,c`); in process, an array of item texts. */
export interface ListKind<Item, V> extends Reads<V> {
  readonly kind: 'list';
  /** One flag's text (items separated by commas), added to the items of earlier ones. */
  parse(text: string, previous: readonly Item[]): Parsed<Item[]>;
  collect(items: readonly Item[]): V;
  readonly expects: string;
  /** What each item is, in words. */
  readonly item: string;
  /** Why an item is refused, after the item itself (`'x' is not a planted fault; ...`). */
  readonly refusal: string;
  /** The text a flag declared with an optional value (`--flag [list]`) stands for when given alone. */
  readonly whenBare?: string;
}

export type ValueKind =
  | IntegerKind<number | null>
  | DurationKind
  | TextKind<unknown>
  | PathKind<unknown>
  | ParsedKind<unknown>
  | SwitchKind
  | ListKind<unknown, unknown>;

/** The value a kind stands for. */
export type ValueOfKind<K> = K extends Reads<infer V> ? V : never;

export const integer = <V extends number | null = number>(
  min: number,
  max: number,
  unit: string | null = null,
): IntegerKind<NoInfer<V>> => ({
  kind: 'integer',
  min,
  max,
  unit,
});

export const duration = (rules: Omit<DurationKind, 'kind'>): DurationKind => ({ kind: 'duration', ...rules });

export const text = <V extends string | null = string>(
  expects: string,
  pattern: string | null = null,
): TextKind<NoInfer<V>> => ({
  kind: 'text',
  expects,
  pattern,
});

export const path = <V>(expects: string): PathKind<V> => ({ kind: 'path', expects });

/** A parsed kind; with `numbers`, one `startMock` also takes as an array of numbers. */
export function parsed<V>(rules: Omit<ParsedKind<V>, 'kind' | 'numbers'>): ParsedKind<V> & { numbers: null };
export function parsed<V>(
  rules: Omit<ParsedKind<V>, 'kind'> & { numbers: NumberList },
): ParsedKind<V> & { numbers: NumberList };
export function parsed<V>(rules: Omit<ParsedKind<V>, 'kind' | 'numbers'> & { numbers?: NumberList }): ParsedKind<V> {
  return { kind: 'parsed', ...rules, numbers: rules.numbers ?? null };
}

export const onOff = (expects = 'a boolean'): SwitchKind => ({ kind: 'switch', expects });

export const list = <Item, V>(rules: Omit<ListKind<Item, V>, 'kind'>): ListKind<Item, V> => ({
  kind: 'list',
  ...rules,
});

/** One option of the mock: one row of the table in mock/options.ts. */
export interface MockOption<K extends ValueKind = ValueKind, N extends string = string> {
  /** The flag of `opsapi mock` as commander declares it: `--port <port>`, `--no-admin` for a default that is on. */
  readonly flag: string;
  /** Its environment variable, after `OPSAPI_`. */
  readonly env: string;
  /** Its name among `startMock`'s options, where it is not the name of the field. */
  readonly name?: N;
  /** Its line of `opsapi mock --help`. */
  readonly help: string;
  readonly value: K;
  readonly default: ValueOfKind<K>;
  /** What the mock does when a default of null means "not set" (`--help`, README), e.g. the budget it infers. */
  readonly unset?: string;
  /** `startMock`'s own default, where it is not the CLI's (a free port, so suites never collide). */
  readonly startMockDefault?: ValueOfKind<K>;
}

/** Declares one option; its default must be a value of its kind. */
export const option = <K extends ValueKind, N extends string = never>(
  spec: MockOption<K, N>,
): MockOption<K, NoInfer<N>> => spec;
