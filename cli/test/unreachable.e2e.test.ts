import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../../common/closed-port.js';
import { opsapi, stderrLines } from './run-cli.js';

/**
 * docs/DESIGN.md, "CLI and exit codes": 2 is a usage error or an unreachable target, for every command that calls a base URL.
 * The target is a loopback port nothing listens on.
 */
describe('every command that calls a base URL nothing answers on', () => {
  let baseUrl: string;

  beforeAll(async () => {
    baseUrl = `http://127.0.0.1:${await closedPort()}`;
  });

  it.each([
    { name: 'listen', args: ['listen', '--port', '0'] },
    { name: 'trigger', args: ['trigger', 'Items.Sku.Created'] },
  ])('opsapi $name says it cannot reach it in one line and exits 2', async ({ name, args }) => {
    const run = await opsapi([...args, '--base-url', baseUrl]);
    expect(run.code, run.stderr).toBe(2);
    expect(stderrLines(run), run.stderr).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^opsapi ${name}: cannot reach ${baseUrl.replace(/[.:/]/g, '\\$&')}`));
    expect(run.stderr).not.toContain('    at ');
  });

  it('opsapi conform exits 2 as well', async () => {
    const run = await opsapi(['conform', '--base-url', baseUrl]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).not.toContain('    at ');
  });
});

describe('opsapi trigger against a base URL that answers, but is not the mock', () => {
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    server = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('says the answer is not JSON in one line and exits 1 (the target answered)', async () => {
    const run = await opsapi(['trigger', 'Items.Sku.Created', '--base-url', baseUrl]);
    expect(run.code, run.stderr).toBe(1);
    expect(stderrLines(run)).toEqual([
      `opsapi trigger: POST ${baseUrl}/__mock/events answered 404 with a body that is not JSON; is it the mock, with its admin API on?`,
    ]);
  });
});
