import {
  type Static,
  type TArray,
  type TBoolean,
  type TInteger,
  type TNumber,
  type TObject,
  type TOptional,
  type TSchema,
  type TString,
  type TUnion,
  Type,
} from '@sinclair/typebox';
import { checkWritableFile } from '../cli/preflight.js';
import { readDecisionFile } from '../cli/read-decisions.js';
import { defaultOptions, MOCK_OPTIONS, type MockOptionName, type MockOptions } from '../mock/options.js';
import type { MockOption, NumberList, PathKind, ValueKind } from '../mock/options/kinds.js';
import { checkObject, expects, shown } from './check.js';

/**
 * The options of `startMock`: the mock's options (mock/options.ts) by the names of the `opsapi mock` flags in camelCase,
 * with the CLI's own value syntax for the strings (`rateLimit: '5/1s'` is `--rate-limit 5/1s`) and the CLI's bounds for
 * the numbers. Left out: the CLI's output flags (`--quiet`, `--print-json`), which an in-process mock has no use for.
 * Defaults are the CLI's except `port` (0: a free port), so a suite never collides with a running mock.
 */

type Table = typeof MOCK_OPTIONS;

/** The name of an option among `startMock`'s: its `name` in the table, else its field's. */
type NameOf<F extends MockOptionName> = [Exclude<Table[F]['name'], undefined>] extends [never]
  ? F
  : Exclude<Table[F]['name'], undefined>;

/** The schema `startMock` checks a value of a kind with. */
type SchemaOf<K extends ValueKind> = K extends { kind: 'integer' | 'duration' }
  ? TInteger
  : K extends { kind: 'switch' }
    ? TBoolean
    : K extends { kind: 'list' }
      ? TArray<TString>
      : K extends { numbers: NumberList }
        ? TUnion<[TString, TArray<TNumber>]>
        : TString;

type OptionsSchema = TObject<{ [F in MockOptionName as NameOf<F>]: TOptional<SchemaOf<Table[F]['value']>> }>;

const ENTRIES = Object.entries(MOCK_OPTIONS) as [MockOptionName, MockOption][];
const nameOf = (field: MockOptionName, spec: MockOption): string => spec.name ?? field;

/** The schema of a value of one kind, with the words its errors say it must be. */
function schemaOf(kind: ValueKind): TSchema {
  switch (kind.kind) {
    case 'integer':
    case 'duration': {
      const unit = kind.kind === 'duration' ? kind.into : kind.unit;
      const words = `an integer from ${kind.min} to ${kind.max}${unit ? ` (${unit})` : ''}`;
      return Type.Integer({ minimum: kind.min, maximum: kind.max, ...expects(words) });
    }
    case 'text':
      return Type.String({
        minLength: 1,
        ...(kind.pattern ? { pattern: kind.pattern } : {}),
        ...expects(kind.expects),
      });
    case 'path':
      return Type.String({ minLength: 1, ...expects(kind.expects) });
    case 'switch':
      return Type.Boolean(expects(kind.expects));
    case 'list':
      return Type.Array(Type.String(expects(kind.item)), expects(kind.expects));
    case 'parsed': {
      const numbers = kind.numbers;
      if (!numbers) return Type.String(expects(kind.expects));
      const items = Type.Number({ minimum: numbers.min, ...expects(numbers.item) });
      const array = Type.Array(items, { minItems: 1, ...expects(numbers.expects) });
      return Type.Union([Type.String(), array], expects(kind.expects));
    }
  }
}

export const StartMockOptionsSchema = Type.Partial(
  Type.Object(Object.fromEntries(ENTRIES.map(([field, spec]) => [nameOf(field, spec), schemaOf(spec.value)])), {
    additionalProperties: false,
  }),
) as unknown as OptionsSchema;

/** The options of `startMock` (every one optional). */
export type StartMockOptions = Readonly<Static<typeof StartMockOptionsSchema>>;

/** camelCase of a flag's long name: `--no-admin` is `noAdmin`. */
const camel = (words: string) => words.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Names a user may reach for, and the option meant: an option's CLI flag as written or in camelCase (`rate-limit`,
 * `noAdmin`, `fault`) and its field among the low-level `MockOptions` (`stateFile`, `deliveryTimeoutMs`).
 */
const MEANT: Readonly<Record<string, string>> = Object.fromEntries(
  ENTRIES.flatMap(([field, spec]) => {
    const long = (spec.flag.split(' ')[0] ?? '').replace(/^--/, '');
    const name = nameOf(field, spec);
    return [...new Set([long, camel(long), field])].filter((alias) => alias !== name).map((alias) => [alias, name]);
  }),
);

/** The options whose value is a file path, and what `startMock` makes of each before anything starts. */
type PathField = { [F in MockOptionName]: Table[F]['value'] extends PathKind<unknown> ? F : never }[MockOptionName];
const PATHS: Record<PathField, (path: string, name: string) => Promise<unknown>> = {
  decisions: async (path, name) => {
    const read = await readDecisionFile(path);
    if (!read.ok) throw new RangeError(`startMock: option ${name}: ${read.error}`);
    return read.file;
  },
  stateFile: async (path, name) => {
    const writable = await checkWritableFile(path, `option ${name}`);
    if (!writable.ok) throw new RangeError(`startMock: ${writable.error}`);
    return path;
  },
};

/** A checked value as the mock reads it: a string through the CLI's parser, a path read or checked. */
async function resolved(field: MockOptionName, spec: MockOption, value: unknown): Promise<unknown> {
  const kind = spec.value;
  const name = nameOf(field, spec);
  switch (kind.kind) {
    case 'parsed': {
      if (typeof value !== 'string') return [...(value as number[])];
      const result = kind.parse(value);
      if (!result.ok) throw new RangeError(`startMock: option ${name}: ${result.error}`);
      return result.value;
    }
    case 'list': {
      const items = (value as string[]).flatMap((text, i) => {
        const result = kind.parse(text, []);
        if (!result.ok) throw new RangeError(`startMock: option ${name}[${i}] ${shown(text)} ${kind.refusal}`);
        return result.value;
      });
      return kind.collect(items);
    }
    case 'path':
      return PATHS[field as PathField](value as string, name);
    default:
      return value;
  }
}

/**
 * Checks `startMock` options and resolves them into the mock's options, before anything is built or bound: an
 * unknown name or a value of the wrong kind throws a TypeError, a value out of range or in a bad syntax a
 * RangeError, each naming the option. The strings go through the CLI's own parsers, so they mean what the flags mean.
 */
export async function resolveOptions(input: unknown): Promise<MockOptions> {
  const given = checkObject(StartMockOptionsSchema, input, { where: 'startMock', noun: 'option', meant: MEANT });
  const options: Record<string, unknown> = { ...defaultOptions() };
  for (const [field, spec] of ENTRIES) {
    const value = given[nameOf(field, spec)];
    if (value !== undefined) options[field] = await resolved(field, spec, value);
    else if (spec.startMockDefault !== undefined) options[field] = spec.startMockDefault;
  }
  return options as unknown as MockOptions;
}
