import { type Command, InvalidArgumentError, Option } from 'commander';
import { DURATION_UNITS, type DurationUnit, formatDuration, parseDuration } from '../common/duration.js';
import { checkOrgName } from '../mock/auth/org.js';

/** A flag that also reads `OPSAPI_<NAME>` from the environment. */
export function flag(flags: string, description: string, envName: string): Option {
  return new Option(flags, description).env(`OPSAPI_${envName}`);
}

const TRUE = /^(?:1|true|yes|on)$/i;
const FALSE = /^(?:0|false|no|off|)$/i;

/**
 * Reads the `OPSAPI_*` variables of the command's switches (flags without a value) as booleans. Commander turns a
 * switch on when its variable is set to anything, so `OPSAPI_ALLOW_SKIPS=false` would have allowed skips in a CI
 * gate: here 1/true/yes/on mean on, 0/false/no/off or empty mean off (for a `--no-x` switch, on means `x` off), and
 * any other value is a usage error (exit 2). A switch given on the command line wins, as for every flag.
 */
export function applySwitchesFromEnv(command: Command): void {
  for (const option of command.options) {
    if (!option.envVar || option.required || option.optional) continue;
    const key = option.attributeName();
    if (command.getOptionValueSource(key) !== 'env') continue;
    const text = (process.env[option.envVar] ?? '').trim();
    const on = TRUE.test(text) ? true : FALSE.test(text) ? false : null;
    if (on === null)
      command.error(`error: ${option.envVar}=${text} is not a switch value: use true or false (1/0, yes/no, on/off)`, {
        exitCode: 2,
      });
    command.setOptionValueWithSource(key, option.negate ? !on : on, 'env');
  }
}

/** Parses a non-negative integer flag. */
export function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** How a duration flag reads its value: see `duration`. */
interface DurationFlag {
  /** The unit of a bare number, the flag's historical one (`--delivery-timeout 500` is 500 ms). */
  readonly unitless: DurationUnit;
  /** The unit of the parsed value, rounded to a whole number of it. */
  readonly into: DurationUnit;
  /** Bounds, in `into` units. */
  readonly min: number;
  readonly max: number;
  /** Whether a negative duration is accepted (default: not). */
  readonly negative?: boolean;
}

/**
 * Parses a duration flag in the kit's one grammar (common/duration.ts: `500`, `500ms`, `10s`, `5m`, `2h`, `1d`), so
 * every duration flag accepts the same forms, into a whole number of `into` units within the bounds.
 */
export function duration(rules: DurationFlag) {
  const size = DURATION_UNITS[rules.into];
  const range = `expected a duration from ${formatDuration(rules.min * size)} to ${formatDuration(rules.max * size)}`;
  return (text: string): number => {
    const parsed = parseDuration(text, rules);
    if (!parsed.ok) throw new InvalidArgumentError(`${range}: ${parsed.error}`);
    const n = Math.round(parsed.ms / size) || 0;
    if (n < rules.min || n > rules.max) throw new InvalidArgumentError(range);
    return n;
  };
}

/** Wraps a `{ok, value|error}` parser into a commander argument parser. */
export function parsed<T>(parse: (text: string) => { ok: true; value: T } | { ok: false; error: string }) {
  return (text: string): T => {
    const result = parse(text);
    if (!result.ok) throw new InvalidArgumentError(result.error);
    return result.value;
  };
}

/** Parses an organisation code with the mock's own rule (mock/auth/org.ts): a token the CLI mints is one the mock accepts. */
export const orgName = parsed(checkOrgName);
