import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type Child } from '../../common/process.js';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';
import { ROOT } from './run-cli.js';

/** The line `opsapi mock --print-json` prints (docs/DESIGN.md, "Testing API"). */
interface Printed {
  url: string;
  port: number;
  adminToken: string;
  limitedToken: string;
  webhookSecret: string;
  org: string;
}

/** Resolves with the first line the child writes to stdout (bounded in time). */
function firstStdoutLine(child: Child, stdout: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no line on stdout within ${timeoutMs} ms:\n${child.output()}`)),
      timeoutMs,
    );
    const check = () => {
      const end = stdout().indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      child.child.stdout?.off('data', check);
      resolve(stdout().slice(0, end));
    };
    child.child.stdout?.on('data', check);
    void child.exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`opsapi mock exited before printing a line:\n${child.output()}`));
    });
    check();
  });
}

describe('opsapi mock --port 0 --print-json, started as a process (how a Java, Python or Go harness starts it)', () => {
  let child: Child;
  let stdout = '';
  let stderr = '';
  let line: string;
  let printed: Printed;

  beforeAll(async () => {
    child = startChild(process.execPath, opsapiNodeArgs(['mock', '--port', '0', '--print-json', '--log-requests']), {
      cwd: ROOT,
      name: 'opsapi mock',
      killOnExit: true,
    });
    child.child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    line = await firstStdoutLine(child, () => stdout, 30_000);
    printed = JSON.parse(line) as Printed;
  }, 60_000);

  afterAll(async () => {
    await child?.stop();
  });

  it('prints one JSON line with the url, port, tokens, webhook secret and org, once it listens', async () => {
    expect(Object.keys(printed).sort()).toEqual(['adminToken', 'limitedToken', 'org', 'port', 'url', 'webhookSecret']);
    expect(printed.url).toBe(`http://127.0.0.1:${printed.port}`);
    expect(printed.port).toBeGreaterThan(0);
    expect(printed.port).not.toBe(4010);
    expect(printed.org).toBe('demo');
    const health = await request(`${printed.url}/__mock/health`);
    expect(health.statusCode).toBe(200);
    await health.body.dump();
  });

  it('gives an admin token that lists SKUs and a limited token that lacks a write permission', async () => {
    const list = await request(`${printed.url}/v1/items/skus?pageSize=1`, {
      headers: { authorization: `Bearer ${printed.adminToken}` },
    });
    expect(list.statusCode).toBe(200);
    expect(((await list.body.json()) as { results: unknown[] }).results).toHaveLength(1);
    const write = await request(`${printed.url}/v1/access/apiKeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${printed.limitedToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci' }),
    });
    expect(write.statusCode).toBe(403);
    await write.body.dump();
  });

  it("gives the org's webhook signing secret", async () => {
    const res = await request(`${printed.url}/__mock/webhook-secret`, {
      headers: { authorization: `Bearer ${printed.adminToken}` },
    });
    expect(await res.body.json()).toEqual({ secret: printed.webhookSecret });
  });

  it('serves docs that fit the port it chose', async () => {
    const res = await request(`${printed.url}/openapi.json`);
    expect(((await res.body.json()) as { servers: { url: string }[] }).servers[0]?.url).toBe(printed.url);
  });

  it('sends the banner and the request log to stderr, never to stdout, and exits 0 on SIGTERM', async () => {
    expect(stderr).toContain(`opsapi mock listening on ${printed.url}`);
    expect(stderr).toContain('/v1/items/skus');
    const status = await child.stop(10_000);
    expect(status).toEqual({ code: 0, signal: null });
    expect(stdout).toBe(`${line}\n`);
  });
});
