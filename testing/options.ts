import { Type, type Static } from '@sinclair/typebox';
import { MOCK_INTEGER_RANGES, type MockIntegerOption } from '../cli/commands/mock-ranges.js';
import { checkWritableFile } from '../cli/preflight.js';
import { readDecisionFile } from '../cli/read-decisions.js';
import type { DecisionFile } from '../spec/decisions/index.js';
import { FAULT_NAMES, parseFaults } from '../mock/faults/option.js';
import { defaultOptions, parseLatency, parseRetrySchedule, type MockOptions } from '../mock/options.js';
import { parseRate } from '../mock/rate-limit.js';
import { checkObject, expects } from './check.js';

const integer = (name: MockIntegerOption, unit = '') => {
  const [minimum, maximum] = MOCK_INTEGER_RANGES[name];
  return Type.Integer({ minimum, maximum, ...expects(`an integer from ${minimum} to ${maximum}${unit}`) });
};

/**
 * The options of `startMock`: the flags of `opsapi mock` in camelCase, with the CLI's own value syntax for the
 * strings (`rateLimit: '5/1s'` is `--rate-limit 5/1s`) and the CLI's bounds for the numbers (cli/commands/mock-ranges.ts).
 * Left out: the CLI's output flags (`--quiet`, `--print-json`), which an in-process mock has no use for. Defaults are
 * the CLI's except `host` (loopback) and `port` (0: a free port), so a suite never collides with a running mock.
 */
export const StartMockOptionsSchema = Type.Partial(
  Type.Object(
    {
      port: integer('port'),
      host: Type.String({ minLength: 1, ...expects('an address to bind, e.g. 127.0.0.1') }),
      seed: integer('seed'),
      skus: integer('skus'),
      rateLimit: Type.String(expects(`a rate N/window ('300/1s', '100/500ms', '1000/1m') or 'off'`)),
      latency: Type.String(expects(`a latency range such as '50-200ms', '100ms' or '1s', or 'off'`)),
      admin: Type.Boolean(expects('a boolean (false: no /__mock admin API, like --no-admin)')),
      jwtSecret: Type.String({ minLength: 1, ...expects('a non-empty string') }),
      maxTenants: integer('maxTenants'),
      cacheMb: integer('cacheMb', ' (MB)'),
      retrySchedule: Type.Union(
        [
          Type.String(),
          Type.Array(Type.Number({ minimum: 0, ...expects('a delay in seconds >= 0') }), {
            minItems: 1,
            ...expects('at least one delay'),
          }),
        ],
        expects(`delays such as '0,5s,5m,2h' or an array of seconds like [0, 5, 300]`),
      ),
      deliveryTimeout: integer('deliveryTimeout', ' (ms)'),
      deliveryConcurrency: integer('deliveryConcurrency'),
      maxNotifications: integer('maxNotifications'),
      blockPrivateEndpoints: Type.Boolean(expects('a boolean')),
      bodyLimit: integer('bodyLimit', ' (bytes)'),
      faults: Type.Array(Type.String(expects('a planted fault name')), expects('an array of planted fault names')),
      state: Type.String({ minLength: 1, ...expects('a file path') }),
      logRequests: Type.Boolean(expects('a boolean')),
      adminKey: Type.String({ minLength: 1, ...expects('a key of 16 or more characters (X-Admin-Key)') }),
      decisions: Type.String({ minLength: 1, ...expects('the path of a decision file (opsapi learn --out)') }),
      redis: Type.String({
        pattern: '^rediss?://',
        ...expects('a Redis URL, redis://host:port[/db] (this mock is then one replica of a mock on that Redis)'),
      }),
    },
    { additionalProperties: false },
  ),
);

/** The options of `startMock` (every one optional). */
export type StartMockOptions = Readonly<Static<typeof StartMockOptionsSchema>>;

/** Names a user may reach for (the CLI's flag, the low-level option), and the option meant. */
const MEANT: Readonly<Record<string, string>> = {
  fault: 'faults',
  stateFile: 'state',
  deliveryTimeoutMs: 'deliveryTimeout',
  noAdmin: 'admin',
  'rate-limit': 'rateLimit',
};

/** One parsed string option or the error naming it. */
function parsedOr<T>(name: string, result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new RangeError(`startMock: option ${name}: ${result.error}`);
  return result.value;
}

/**
 * Checks `startMock` options and resolves them into the mock's options, before anything is built or bound: an
 * unknown name or a value of the wrong kind throws a TypeError, a value out of range or in a bad syntax a
 * RangeError, each naming the option. The strings go through the CLI's own parsers, so they mean what the flags mean.
 */
export async function resolveOptions(input: unknown): Promise<MockOptions> {
  const o = checkObject(StartMockOptionsSchema, input, {
    where: 'startMock',
    noun: 'option',
    meant: MEANT,
  }) as StartMockOptions;

  const faults = (o.faults ?? []).map((name, i) => {
    const parsed = parseFaults(name);
    if (!parsed.ok)
      throw new RangeError(`startMock: option faults[${i}] '${name}' is not a planted fault; known: ${FAULT_NAMES}`);
    return parsed.value;
  });
  let decisions: DecisionFile | undefined;
  if (o.decisions !== undefined) {
    const read = await readDecisionFile(o.decisions);
    if (!read.ok) throw new RangeError(`startMock: option decisions: ${read.error}`);
    decisions = read.file;
  }
  if (o.state !== undefined) {
    const writable = await checkWritableFile(o.state, 'option state');
    if (!writable.ok) throw new RangeError(`startMock: ${writable.error}`);
  }
  const d = defaultOptions();
  const rate = o.rateLimit === undefined ? undefined : parseRate(o.rateLimit);
  return {
    ...d,
    host: o.host ?? '127.0.0.1',
    port: o.port ?? 0,
    seed: o.seed ?? d.seed,
    skus: o.skus ?? d.skus,
    rateLimit:
      rate === undefined ? d.rateLimit : parsedOr('rateLimit', rate.ok ? { ok: true, value: rate.rate } : rate),
    latency: o.latency === undefined ? null : parsedOr('latency', parseLatency(o.latency)),
    admin: o.admin ?? d.admin,
    jwtSecret: o.jwtSecret ?? d.jwtSecret,
    maxTenants: o.maxTenants ?? d.maxTenants,
    cacheMb: o.cacheMb ?? d.cacheMb,
    retrySchedule:
      o.retrySchedule === undefined
        ? d.retrySchedule
        : typeof o.retrySchedule === 'string'
          ? parsedOr('retrySchedule', parseRetrySchedule(o.retrySchedule))
          : [...o.retrySchedule],
    deliveryTimeoutMs: o.deliveryTimeout ?? d.deliveryTimeoutMs,
    deliveryConcurrency: o.deliveryConcurrency ?? d.deliveryConcurrency,
    maxNotifications: o.maxNotifications ?? d.maxNotifications,
    blockPrivateEndpoints: o.blockPrivateEndpoints ?? d.blockPrivateEndpoints,
    bodyLimit: o.bodyLimit ?? d.bodyLimit,
    faults: new Set(faults.flat()),
    stateFile: o.state ?? null,
    logRequests: o.logRequests ?? d.logRequests,
    adminKey: o.adminKey ?? d.adminKey,
    redis: o.redis ?? d.redis,
    ...(decisions ? { decisions } : {}),
  };
}
