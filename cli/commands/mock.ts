import { Command, InvalidArgumentError } from 'commander';
import type { startMock } from '../../mock/server.js';
import { defaultOptions, parseLatency, parseRetrySchedule, type MockOptions } from '../../mock/options.js';
import { parseRate } from '../../mock/rate-limit.js';
import { FAULT_NAMES, parseFaults, type FaultName } from '../../mock/faults/index.js';
import { bannerLines, startupFacts } from './mock-announce.js';
import { MOCK_INTEGER_RANGES as R } from './mock-ranges.js';
import { duration, flag, integer, parsed } from '../options.js';
import { checkBindable, checkWritableFile, oneLine, systemErrorCode } from '../preflight.js';
import { readDecisionFile } from '../read-decisions.js';
import { sharedModeRefusal } from '../../mock/shared-mode.js';

/** `--fault` (repeatable): parsed and validated by the planted-fault layer (mock/faults/option.ts). */
function collectFault(value: string, previous: FaultName[] = []): FaultName[] {
  const result = parseFaults(value, previous);
  if (!result.ok) throw new InvalidArgumentError(result.error);
  return result.value;
}

/** `opsapi mock`: the stateful mock server with embedded defaults (`npm start`). */
const [minTimeout, maxTimeout] = R.deliveryTimeout;
const deliveryTimeout = duration({ unitless: 'ms', into: 'ms', min: minTimeout, max: maxTimeout });

export function mockCommand(): Command {
  const d = defaultOptions();
  return new Command('mock')
    .description('Start the stateful mock server (embedded fixtures; no configuration needed).')
    .addOption(
      flag('--port <port>', 'port to listen on', 'PORT')
        .default(d.port)
        .argParser(integer(...R.port)),
    )
    .addOption(flag('--host <host>', 'address to bind', 'HOST').default(d.host))
    .addOption(
      flag('--seed <n>', 'seed of the generated data', 'SEED')
        .default(d.seed)
        .argParser(integer(...R.seed)),
    )
    .addOption(
      flag('--skus <n>', 'SKUs per tenant', 'SKUS')
        .default(d.skus)
        .argParser(integer(...R.skus)),
    )
    .addOption(
      flag('--rate-limit <rate>', 'per-tenant rate limit, N/window (300/1s) or off', 'RATE_LIMIT')
        .default(d.rateLimit, '300/1s')
        .argParser(
          parsed((t) => {
            const r = parseRate(t);
            return r.ok ? { ok: true as const, value: r.rate } : r;
          }),
        ),
    )
    .addOption(
      flag(
        '--latency <range>',
        'added latency per request, e.g. 50-200ms or 1s (a bare number is ms)',
        'LATENCY',
      ).argParser(parsed(parseLatency)),
    )
    .addOption(flag('--no-admin', 'disable the /__mock admin API', 'NO_ADMIN'))
    .addOption(
      flag(
        '--admin-key <key>',
        'key every /__mock/* call but health must send in X-Admin-Key (16+ characters; required on a non-loopback --host unless --no-admin)',
        'ADMIN_KEY',
      ),
    )
    .addOption(flag('--jwt-secret <secret>', 'HS256 secret of access tokens', 'JWT_SECRET').default(d.jwtSecret))
    .addOption(
      flag('--max-tenants <n>', 'tenants kept in memory (least recently used evicted)', 'MAX_TENANTS')
        .default(d.maxTenants)
        .argParser(integer(...R.maxTenants)),
    )
    .addOption(
      flag(
        '--cache-mb <n>',
        'list cache budget in MB over all tenants, a quarter of it per tenant (default: 1/8 of memory, at most 512)',
        'CACHE_MB',
      ).argParser(integer(...R.cacheMb)),
    )
    .addOption(
      flag(
        '--retry-schedule <list>',
        'webhook attempt delays, e.g. 0,5s,5m,30m,2h,5h,10h,10h (a bare number is seconds)',
        'RETRY_SCHEDULE',
      ).argParser(parsed(parseRetrySchedule)),
    )
    .addOption(
      flag(
        '--delivery-timeout <duration>',
        'per-attempt webhook timeout (e.g. 500ms or 10s; a bare number is ms)',
        'DELIVERY_TIMEOUT',
      )
        .default(d.deliveryTimeoutMs)
        .argParser(deliveryTimeout),
    )
    .addOption(
      flag('--delivery-concurrency <n>', 'webhook deliveries in flight at most', 'DELIVERY_CONCURRENCY')
        .default(d.deliveryConcurrency)
        .argParser(integer(...R.deliveryConcurrency)),
    )
    .addOption(
      flag(
        '--max-notifications <n>',
        'notifications kept per tenant (oldest finished ones forgotten)',
        'MAX_NOTIFICATIONS',
      )
        .default(d.maxNotifications)
        .argParser(integer(...R.maxNotifications)),
    )
    .addOption(
      flag(
        '--block-private-endpoints',
        'refuse webhook endpoints resolving to private or loopback addresses',
        'BLOCK_PRIVATE_ENDPOINTS',
      ),
    )
    .addOption(
      flag('--body-limit <bytes>', 'largest request body', 'BODY_LIMIT')
        .default(d.bodyLimit)
        .argParser(integer(...R.bodyLimit)),
    )
    .addOption(flag('--fault <name>', `plant a fault (repeatable): ${FAULT_NAMES}`, 'FAULT').argParser(collectFault))
    .addOption(
      flag(
        '--decisions <file>',
        'adopt the decisions observed at a real deployment (a file of opsapi learn --out) instead of the inferred ones',
        'DECISIONS',
      ),
    )
    .addOption(
      flag('--state <file>', 'persist all state to this file (journal + snapshot) and restore it on start', 'STATE'),
    )
    .addOption(
      flag(
        '--redis <url>',
        'one replica of a mock whose state lives in Redis (redis://host:port[/db]): run N of them behind a load balancer',
        'REDIS',
      ),
    )
    .addOption(flag('--log-requests', 'log every request to stderr', 'LOG_REQUESTS'))
    .addOption(flag('--quiet', 'print only the URL', 'QUIET'))
    .addOption(
      flag(
        '--print-json',
        'print one JSON line {url, port, adminToken, limitedToken, webhookSecret, org} on stdout once listening, and nothing else there (the banner goes to stderr); for harnesses in other languages, with --port 0',
        'PRINT_JSON',
      ),
    )
    .action(async (o: Record<string, unknown>) => {
      const options: Partial<MockOptions> = {
        port: o.port as number,
        host: o.host as string,
        seed: o.seed as number,
        skus: o.skus as number,
        rateLimit: o.rateLimit as MockOptions['rateLimit'],
        latency: (o.latency as MockOptions['latency']) ?? null,
        admin: o.admin !== false,
        adminKey: (o.adminKey as string | undefined) ?? null,
        jwtSecret: o.jwtSecret as string,
        maxTenants: o.maxTenants as number,
        cacheMb: (o.cacheMb as number | undefined) ?? null,
        deliveryTimeoutMs: o.deliveryTimeout as number,
        deliveryConcurrency: o.deliveryConcurrency as number,
        maxNotifications: o.maxNotifications as number,
        blockPrivateEndpoints: o.blockPrivateEndpoints === true,
        bodyLimit: o.bodyLimit as number,
        faults: new Set((o.fault as FaultName[] | undefined) ?? []),
        logRequests: o.logRequests === true,
        stateFile: (o.state as string | undefined) ?? null,
        redis: (o.redis as string | undefined) ?? null,
        ...(o.retrySchedule ? { retrySchedule: o.retrySchedule as number[] } : {}),
      };
      const refuse = (line: string): never => {
        process.stderr.write(`opsapi mock: ${line}\n`);
        process.exit(2);
      };
      // Shared mode, secure by default (docs/DESIGN.md, "Shared sandbox"): a non-loopback --host with the default JWT secret or an
      // unguarded admin API, or a short --admin-key, is refused before anything is built or bound (mock/shared-mode.ts).
      const unsafe = sharedModeRefusal({ ...defaultOptions(), ...options });
      if (unsafe) refuse(unsafe);
      // Bad --decisions, --host, --port or --state: one line and exit 2 before anything is built, bound or written.
      if (o.decisions !== undefined) {
        const decisions = await readDecisionFile(String(o.decisions));
        if (!decisions.ok) refuse(decisions.error);
        else options.decisions = decisions.file;
      }
      const bindable = await checkBindable(options.host ?? '', options.port ?? 0);
      if (!bindable.ok) refuse(bindable.error);
      if (options.stateFile) {
        const writable = await checkWritableFile(options.stateFile, '--state');
        if (!writable.ok) refuse(writable.error);
      }
      let mock: Awaited<ReturnType<typeof startMock>>;
      try {
        // Loaded only here: a refused command line (most of the CLI's exits 2) never loads the server (~0.1 s of CPU).
        const { startMock: start } = await import('../../mock/server.js');
        mock = await start(options);
      } catch (error) {
        const name = (error as Error).name;
        if (name === 'StateFileError' || name === 'SharedModeError') refuse((error as Error).message);
        // --redis unreachable or serving replicas with other settings (mock/replication/).
        if (name === 'RedisUnavailableError' || name === 'ReplicationConfigError') refuse((error as Error).message);
        const code = systemErrorCode(error);
        if (code === 'EADDRINUSE') refuse(`${options.host}:${options.port} is already in use; pick another --port.`);
        // Another system error (the state file unreadable, the port taken since the check): still one line.
        if (code) refuse(`cannot start: ${oneLine(error)}`);
        throw error;
      }
      const running = mock;
      const facts = await startupFacts(running, options.jwtSecret ?? '');
      if (o.printJson) {
        // One JSON line, the only output ever written to stdout: a harness in any language reads it
        // (docs/DESIGN.md, "Testing API"). The banner goes to stderr, where a human or a container log still sees it.
        process.stdout.write(`${JSON.stringify(facts)}\n`);
        if (!o.quiet) process.stderr.write(`${bannerLines(running, options, facts).join('\n')}\n`);
      } else {
        process.stdout.write(`${(o.quiet ? [running.url] : bannerLines(running, options, facts)).join('\n')}\n`);
      }
      // Graceful shutdown: stop accepting, finish in-flight requests and deliveries, persist, exit 0.
      const shutdown = async (signal: string) => {
        process.stderr.write(`opsapi mock: ${signal}, shutting down\n`);
        const force = setTimeout(() => process.exit(1), 30_000);
        force.unref();
        await running.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void shutdown('SIGINT'));
      process.once('SIGTERM', () => void shutdown('SIGTERM'));
    });
}
