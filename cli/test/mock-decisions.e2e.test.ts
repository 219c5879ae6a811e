import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild, type Child } from '../../common/process.js';
import { decisionFile } from '../../spec/decisions/test/decision-file.js';
import { opsapiNodeArgs } from '../../test/support/cli-command.js';
import { opsapi, ROOT, stderrLines, type CliRun } from './run-cli.js';

/** A refusal as the CLI reports it: exit 2, one line on stderr naming the file, no stack trace, no output. */
function expectRefusal(run: CliRun, file: string, says: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  const lines = stderrLines(run);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^opsapi mock: --decisions /);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(says);
  expect(run.stderr).not.toContain('    at ');
  expect(run.stdout).toBe('');
}

/** Two decisions that differ from the contract's inferences, and one the mock cannot take on. */
const GOOD = decisionFile({
  'code-status:NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 404,
  'text-case': 'sensitive',
  'catalog-texts': 'own',
});

describe('opsapi mock --decisions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-decisions-'));
  const file = (name: string, content: string): string => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('is listed by opsapi mock --help', async () => {
    const run = await opsapi(['mock', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--decisions <file>/);
  });

  // Every kind of refused file is told apart by readDecisionFile (cli/test/read-decisions.test.ts); here, the command.
  it('refuses a file naming an unknown decision in one line naming the file, exit 2', async () => {
    const path = file('unknown.json', JSON.stringify(decisionFile({ 'code-status:NO.SUCH.CODE': 404 })));
    expectRefusal(
      await opsapi(['mock', '--port', '0', '--decisions', path]),
      path,
      /unknown decision "code-status:NO\.SUCH\.CODE"/,
    );
  });

  it('reads the file from OPSAPI_DECISIONS too', async () => {
    const path = file('env.json', '[]');
    expectRefusal(
      await opsapi(['mock', '--port', '0'], { env: { OPSAPI_DECISIONS: path } }),
      path,
      /not a JSON object/,
    );
  });

  describe('with a good file', () => {
    let child: Child;
    let url: string;

    beforeAll(async () => {
      const path = file('good.json', JSON.stringify(GOOD));
      child = startChild(process.execPath, opsapiNodeArgs(['mock', '--port', '0', '--decisions', path]), {
        cwd: ROOT,
        name: 'opsapi mock --decisions',
        killOnExit: true,
      });
      await child.waitFor(/^Try: /m, 30_000);
      url = (await child.waitFor(/listening on (http:\/\/\S+)/, 1000))[1] ?? '';
    }, 60_000);

    afterAll(async () => {
      await child?.stop();
    });

    it('says in the banner how many decisions it adopted, observed where and when', () => {
      expect(child.output()).toContain(
        '  decisions:      adopted 2 (observed at https://api.example.test on 2025-06-01T10:00:00.000Z)\n',
      );
    });

    it('lists each decision it does not adopt in the banner, one line each with the reason', () => {
      expect(child.output()).toContain(
        "  not adopted:    catalog-texts: its error catalog keeps the contract's texts\n",
      );
    });

    it('answers as the deployment was observed to', async () => {
      const admin = /admin token:\s+(\S+)/.exec(child.output())?.[1] ?? '';
      const reply = await request(`${url}/v1/notifications/webhook/subscriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: 'https://receiver.example/', eventName: 'No.Such.Event', eventVersion: 1 }),
      });
      expect(reply.statusCode).toBe(404);
      expect(await reply.body.json()).toMatchObject({
        status: 404,
        code: 'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND',
      });
    });
  });

  it('prints only the URL with --quiet', async () => {
    const path = file('quiet.json', JSON.stringify(GOOD));
    const child = startChild(
      process.execPath,
      opsapiNodeArgs(['mock', '--port', '0', '--quiet', '--decisions', path]),
      {
        cwd: ROOT,
        name: 'opsapi mock --quiet --decisions',
        killOnExit: true,
      },
    );
    try {
      await child.waitFor(/^http:\/\/\S+\n/m, 30_000);
      // Bounded: the banner, were it printed, is written with the URL in one write.
      expect(child.output()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
    } finally {
      await child.stop();
    }
  }, 60_000);
});
