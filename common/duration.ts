/**
 * The one grammar of every duration the kit reads (flags of the CLI, options of `startMock`): a number, decimals
 * allowed, then an optional unit `ms`, `s`, `m`, `h` or `d` (`500`, `500ms`, `0.5s`, `5m`, `2h`, `1d`), case and
 * blanks around the unit ignored. A number without a unit keeps the unit its flag has always had (`--latency 50`
 * is milliseconds, `--retry-schedule 5` seconds), so every value written before the grammar was shared still means
 * what it meant. A sign is allowed only where a negative duration makes sense (an expired token on purpose).
 */

/** Units of a duration, in milliseconds. */
export const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

export type DurationUnit = keyof typeof DURATION_UNITS;

/** How one flag reads the grammar. */
interface DurationRules {
  /** The unit of a bare number. */
  readonly unitless: DurationUnit;
  /** Whether `-60` (or `-1m`) is a duration (default: not). */
  readonly negative?: boolean;
}

/** A parsed duration in milliseconds, with whether its text named a unit (a range's low end borrows the high's). */
type DurationResult = { ok: true; ms: number; unit: DurationUnit | null } | { ok: false; error: string };

const UNIT_NAMES: Readonly<Record<DurationUnit, string>> = {
  ms: 'milliseconds',
  s: 'seconds',
  m: 'minutes',
  h: 'hours',
  d: 'days',
};

const DURATION = /^([+-])?(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m|h|d)?$/;

/** Examples shown when a value is not a duration. */
const DURATION_EXAMPLES = '500ms, 10s, 5m, 2h or 1d';

/** The grammar in words, for a flag whose bare numbers are in `unitless`. */
export function durationHint(unitless: DurationUnit): string {
  return `a number with an optional unit ms, s, m, h or d; a bare number is ${UNIT_NAMES[unitless]}`;
}

/** Parses one duration (see the module's comment); the error names the text and the grammar. */
export function parseDuration(text: string, rules: DurationRules): DurationResult {
  const m = DURATION.exec(text.trim().toLowerCase());
  const sign = m?.[1];
  if (!m || (sign === '-' && !rules.negative))
    return {
      ok: false,
      error: `"${text}" is not a duration: use ${durationHint(rules.unitless)} (e.g. ${DURATION_EXAMPLES})`,
    };
  const unit = (m[3] as DurationUnit | undefined) ?? null;
  const ms = Number(m[2]) * DURATION_UNITS[unit ?? rules.unitless];
  return { ok: true, ms: sign === '-' ? -ms : ms, unit };
}

/** `ms` written in the grammar, in the largest unit that keeps it whole (`90000` -> `90s`, `3600000` -> `1h`). */
export function formatDuration(ms: number): string {
  const units = Object.entries(DURATION_UNITS).reverse() as [DurationUnit, number][];
  for (const [unit, size] of units) if (ms !== 0 && Number.isInteger(ms / size)) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
