import { Command, InvalidArgumentError } from 'commander';
import { startMock } from '../../mock/server.js';
import { DEFAULT_ORG, defaultOptions, parseLatency, parseRetrySchedule, type MockOptions } from '../../mock/options.js';
import { parseRate } from '../../mock/rate-limit.js';
import { FAULTS, isFault, type FaultName } from '../../mock/faults.js';
import { mintToken } from '../../mock/auth/tokens.js';
import { adminClaims, limitedClaims } from '../../mock/auth/presets.js';
import { flag, integer, parsed } from '../options.js';
import { checkBindable, checkWritableFile, oneLine, systemErrorCode } from '../preflight.js';

function collectFault(value: string, previous: FaultName[] = []): FaultName[] {
  const names = value.split(',').map((v) => v.trim()).filter(Boolean);
  for (const name of names) if (!isFault(name)) throw new InvalidArgumentError(`unknown fault "${name}"; known: ${Object.keys(FAULTS).join(', ')}`);
  return [...previous, ...(names as FaultName[])];
}

/** `opsapi mock`: the stateful mock server with embedded defaults (`npm start`). */
export function mockCommand(): Command {
  const d = defaultOptions();
  return new Command('mock')
    .description('Start the stateful mock server (embedded fixtures; no configuration needed).')
    .addOption(flag('--port <port>', 'port to listen on', 'PORT').default(d.port).argParser(integer(0, 65535)))
    .addOption(flag('--host <host>', 'address to bind', 'HOST').default(d.host))
    .addOption(flag('--seed <n>', 'seed of the generated data', 'SEED').default(d.seed).argParser(integer(0, 2 ** 31 - 1)))
    .addOption(flag('--skus <n>', 'SKUs per tenant', 'SKUS').default(d.skus).argParser(integer(1, 1_000_000)))
    .addOption(flag('--rate-limit <rate>', 'per-tenant rate limit, N/window (300/1s) or off', 'RATE_LIMIT').default(d.rateLimit, '300/1s').argParser(parsed((t) => { const r = parseRate(t); return r.ok ? { ok: true as const, value: r.rate } : r; })))
    .addOption(flag('--latency <range>', 'added latency per request, e.g. 50-200ms', 'LATENCY').argParser(parsed(parseLatency)))
    .addOption(flag('--no-admin', 'disable the /__mock admin API', 'NO_ADMIN'))
    .addOption(flag('--jwt-secret <secret>', 'HS256 secret of access tokens', 'JWT_SECRET').default(d.jwtSecret))
    .addOption(flag('--max-tenants <n>', 'tenants kept in memory (least recently used evicted)', 'MAX_TENANTS').default(d.maxTenants).argParser(integer(1, 1_000_000)))
    .addOption(flag('--retry-schedule <list>', 'webhook attempt delays, e.g. 0,5s,5m,30m,2h,5h,10h,10h', 'RETRY_SCHEDULE').argParser(parsed(parseRetrySchedule)))
    .addOption(flag('--delivery-timeout <ms>', 'per-attempt webhook timeout in ms', 'DELIVERY_TIMEOUT').default(d.deliveryTimeoutMs).argParser(integer(1, 600_000)))
    .addOption(flag('--delivery-concurrency <n>', 'webhook deliveries in flight at most', 'DELIVERY_CONCURRENCY').default(d.deliveryConcurrency).argParser(integer(1, 10_000)))
    .addOption(flag('--max-notifications <n>', 'notifications kept per tenant (oldest finished ones forgotten)', 'MAX_NOTIFICATIONS').default(d.maxNotifications).argParser(integer(10, 10_000_000)))
    .addOption(flag('--block-private-endpoints', 'refuse webhook endpoints resolving to private or loopback addresses', 'BLOCK_PRIVATE_ENDPOINTS'))
    .addOption(flag('--body-limit <bytes>', 'largest request body', 'BODY_LIMIT').default(d.bodyLimit).argParser(integer(1024, 100 * 1024 * 1024)))
    .addOption(flag('--fault <name>', `plant a fault (repeatable): ${Object.keys(FAULTS).join(', ')}`, 'FAULT').argParser(collectFault))
    .addOption(flag('--state <file>', 'persist all state to this file (journal + snapshot) and restore it on start', 'STATE'))
    .addOption(flag('--log-requests', 'log every request to stderr', 'LOG_REQUESTS'))
    .addOption(flag('--quiet', 'print only the URL', 'QUIET'))
    .action(async (o: Record<string, unknown>) => {
      const options: Partial<MockOptions> = {
        port: o.port as number,
        host: o.host as string,
        seed: o.seed as number,
        skus: o.skus as number,
        rateLimit: o.rateLimit as MockOptions['rateLimit'],
        latency: (o.latency as MockOptions['latency']) ?? null,
        admin: o.admin !== false,
        jwtSecret: o.jwtSecret as string,
        maxTenants: o.maxTenants as number,
        deliveryTimeoutMs: o.deliveryTimeout as number,
        deliveryConcurrency: o.deliveryConcurrency as number,
        maxNotifications: o.maxNotifications as number,
        blockPrivateEndpoints: o.blockPrivateEndpoints === true,
        bodyLimit: o.bodyLimit as number,
        faults: new Set((o.fault as FaultName[] | undefined) ?? []),
        logRequests: o.logRequests === true,
        stateFile: (o.state as string | undefined) ?? null,
        ...(o.retrySchedule ? { retrySchedule: o.retrySchedule as number[] } : {}),
      };
      const refuse = (line: string): never => {
        process.stderr.write(`opsapi mock: ${line}\n`);
        process.exit(2);
      };
      // Bad --host, --port or --state: one line and exit 2 before anything is built, bound or written.
      const bindable = await checkBindable(options.host ?? '', options.port ?? 0);
      if (!bindable.ok) refuse(bindable.error);
      if (options.stateFile) {
        const writable = await checkWritableFile(options.stateFile, '--state');
        if (!writable.ok) refuse(writable.error);
      }
      let mock;
      try {
        mock = await startMock(options);
      } catch (error) {
        if ((error as Error).name === 'StateFileError') refuse((error as Error).message);
        const code = systemErrorCode(error);
        if (code === 'EADDRINUSE') refuse(`${options.host}:${options.port} is already in use; pick another --port.`);
        // Another system error (the state file unreadable, the port taken since the check): still one line.
        if (code) refuse(`cannot start: ${oneLine(error)}`);
        throw error;
      }
      const running = mock;
      const secret = running.services.store.tenant(DEFAULT_ORG).webhookSecret;
      const lines = o.quiet
        ? [running.url]
        : [
            `opsapi mock listening on ${running.url}`,
            `  docs:           ${running.url}/docs`,
            `  contract:       ${running.url}/openapi.json`,
            `  tenant (org):   ${DEFAULT_ORG}`,
            `  admin token:    ${await mintToken(options.jwtSecret ?? '', adminClaims(DEFAULT_ORG), 30 * 24 * 3600)}`,
            `  limited token:  ${await mintToken(options.jwtSecret ?? '', limitedClaims(DEFAULT_ORG), 30 * 24 * 3600)}`,
            `  webhook secret: ${secret}`,
            `  rate limit:     ${options.rateLimit ? `${options.rateLimit.limit}/${options.rateLimit.windowMs}ms per tenant` : 'off'}`,
            ...(options.faults && options.faults.size ? [`  FAULTS PLANTED: ${[...options.faults].join(', ')}`] : []),
            ...(running.restored ? [`  state:          ${options.stateFile} (restored ${running.restored.tenants} tenants, ${running.restored.entities} records, ${running.restored.pendingNotifications} pending deliveries${running.restored.tornTail ? '; dropped a torn last line' : ''})`] : []),
            ...(options.admin ? ['  admin API:      /__mock/* (tokens, reset, clock, events, fixtures, requests, webhook-secret, api-keys)'] : ['  admin API:      off']),
            'Try: curl -H "Authorization: Bearer <admin token>" ' + `${running.url}/v1/items/skus?pageSize=5`,
          ];
      process.stdout.write(`${lines.join('\n')}\n`);
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
