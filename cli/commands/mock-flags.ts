import { InvalidArgumentError, Option } from 'commander';
import { MOCK_OPTIONS, type MockOptionName, type MockOptions } from '../../mock/options.js';
import type { MockOption } from '../../mock/options/kinds.js';
import { duration, flag, integer } from '../options.js';

/**
 * The flags of `opsapi mock`: one per option of the mock's table (mock/options.ts), read by kind, then the CLI's own
 * output flags, which an in-process mock has no use for.
 */

/** The CLI's own flags, after the mock's options in `--help`. */
const OUTPUT_FLAGS = [
  { flag: '--quiet', env: 'QUIET', help: 'print only the URL' },
  {
    flag: '--print-json',
    env: 'PRINT_JSON',
    help: 'print one JSON line {url, port, adminToken, limitedToken, webhookSecret, org} on stdout once listening, and nothing else there (the banner goes to stderr); for harnesses in other languages, with --port 0',
  },
] as const;

/**
 * A parsed value, boxed: commander stores a parser's null (`--rate-limit off`) as an empty string, so a kind whose
 * value may be null hands commander a box instead.
 */
interface Box {
  readonly value: unknown;
}

/** How commander shows a default in `--help`: a parsed option in its own grammar, text quoted, `unset`'s words for none. */
function defaultText(spec: MockOption): string | null {
  const kind = spec.value;
  if (kind.kind === 'switch' || kind.kind === 'list' || kind.kind === 'path') return null;
  const none = spec.default === null || spec.default === undefined;
  if (none && spec.unset) return spec.unset;
  if (kind.kind === 'parsed') return kind.format(spec.default);
  return none ? null : JSON.stringify(spec.default);
}

/** The commander option of one of the mock's options: its flag, variable, parser and default. */
function mockFlag(spec: MockOption): Option {
  const option = flag(spec.flag, spec.help, spec.env);
  const kind = spec.value;
  const shown = defaultText(spec);
  switch (kind.kind) {
    case 'integer':
      option.argParser(integer(kind.min, kind.max));
      break;
    case 'duration':
      option.argParser(duration(kind));
      break;
    case 'parsed':
      option.argParser((text: string): Box => {
        const result = kind.parse(text);
        if (!result.ok) throw new InvalidArgumentError(result.error);
        return { value: result.value };
      });
      return shown === null ? option : option.default({ value: spec.default } satisfies Box, shown);
    case 'list':
      // A flag whose value is optional (`--allow-private-endpoints` alone) reads as the text it stands for.
      if (kind.whenBare !== undefined) option.preset(kind.whenBare);
      option.argParser((text: string, previous: unknown[] = []) => {
        const result = kind.parse(text, previous);
        if (!result.ok) throw new InvalidArgumentError(result.error);
        return result.value;
      });
      break;
  }
  return shown === null ? option : option.default(spec.default, shown);
}

const ENTRIES = Object.entries(MOCK_OPTIONS) as [MockOptionName, MockOption][];

/** Every flag of `opsapi mock`, in the order of `--help`. */
export function mockFlags(): Option[] {
  return [...ENTRIES.map(([, spec]) => mockFlag(spec)), ...OUTPUT_FLAGS.map((o) => flag(o.flag, o.help, o.env))];
}

/** The values commander parsed from the flags and `OPSAPI_*` variables, by attribute name. */
type FlagValues = Readonly<Record<string, unknown>>;

/** A flag's value as the mock reads it: unboxed, collected, or the option's default when not given. */
function fromFlag(spec: MockOption, given: unknown): unknown {
  const kind = spec.value;
  // Not given: the default, but a fresh collection rather than the table's own (a mock may keep what it is handed).
  if (given === undefined) return kind.kind === 'list' ? kind.collect([]) : spec.default;
  if (kind.kind === 'parsed') return (given as Box).value;
  if (kind.kind === 'list') return kind.collect(given as unknown[]);
  return given;
}

/**
 * The mock's options from the parsed flags, each given or its default; but `decisions`, whose flag names a file the
 * command reads itself (cli/read-decisions.ts) before anything starts.
 */
export function optionsFromFlags(values: FlagValues): Partial<MockOptions> {
  const options: Record<string, unknown> = {};
  for (const [name, spec] of ENTRIES)
    if (name !== 'decisions') options[name] = fromFlag(spec, values[new Option(spec.flag).attributeName()]);
  return options as Partial<MockOptions>;
}
