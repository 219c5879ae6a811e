import { parseArgs } from 'node:util';
import { startIndependentServer } from './index.js';

/**
 * Starts the server from a shell: `tsx test/support/independent-server/main.ts [--port N] [--fault NAME]...`.
 * Prints one JSON line with the URL, tokens and data file of tenant `acme` (and a token of `globex`), then runs
 * until SIGINT or SIGTERM.
 */
const { values } = parseArgs({
  options: { port: { type: 'string' }, fault: { type: 'string', multiple: true } },
  strict: true,
});
const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  throw new Error(`--port must be 0..65535, got ${values.port}`);

const server = await startIndependentServer({ port, faults: values.fault ?? [] });
const acme = await server.tenant('acme');
const globex = await server.tenant('globex');
process.stdout.write(
  `${JSON.stringify({
    url: server.url,
    org: acme.org,
    token: acme.token,
    limitedToken: acme.limitedToken,
    otherTenantToken: globex.token,
    webhookSecret: acme.webhookSecret,
    data: acme.data,
  })}\n`,
);

const stop = (): void => {
  void server.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
