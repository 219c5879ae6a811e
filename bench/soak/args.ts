/** Settings of `npm run soak`. */
export interface SoakArgs {
  /** Length of the measured run, seconds (bounded). */
  readonly seconds: number;
  /** Workers sending requests at once. */
  readonly concurrency: number;
  /** Tenants the traffic is spread over. */
  readonly tenants: number;
  /** Where to write the JSON result; null: not written. */
  readonly out: string | null;
  /** The JavaScript file the mock runs from (`--cli`); null: `cli/opsapi.ts` through tsx. */
  readonly cli: string | null;
}

export const USAGE = `Usage: npm run soak -- [--seconds N] [--concurrency N] [--tenants N] [--out FILE] [--cli FILE]

Starts the mock as a child process and runs mixed traffic against it (reads, writes, bad requests, webhooks)
for N seconds, then prints a summary. Exit code 1 when any request got a status outside the set expected for
its kind, any 5xx, or any webhook signature failed to verify; otherwise 0.

  --seconds N      measured run length, 1..3600 (default 30)
  --concurrency N  workers sending requests at once, 1..256 (default 16)
  --tenants N      tenants the traffic is spread over, 1..64 (default 4)
  --out FILE       also write the result as JSON to FILE
  --cli FILE       run the mock from this JavaScript file (e.g. dist/cli/opsapi.js) instead of cli/opsapi.ts
                   through tsx
  --help           this text
`;

function bounded(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || n < min || n > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** Parses the command line; 'help' for --help. Throws with a message on bad input. */
export function parseSoakArgs(argv: readonly string[]): SoakArgs | 'help' {
  let seconds = 30;
  let concurrency = 16;
  let tenants = 4;
  let out: string | null = null;
  let cli: string | null = null;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--help':
      case '-h':
        return 'help';
      case '--seconds':
        seconds = bounded('--seconds', value(), 1, 3600);
        break;
      case '--concurrency':
        concurrency = bounded('--concurrency', value(), 1, 256);
        break;
      case '--tenants':
        tenants = bounded('--tenants', value(), 1, 64);
        break;
      case '--out': {
        const file = value();
        if (!file) throw new Error('--out needs a file name');
        out = file;
        break;
      }
      case '--cli': {
        const file = value();
        if (!file) throw new Error('--cli needs a file name');
        cli = file;
        break;
      }
      default:
        throw new Error(`unknown argument "${arg}"`);
    }
  }
  return { seconds, concurrency, tenants, out, cli };
}
