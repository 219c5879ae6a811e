import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_MOCK_URL } from '../../mock/options.js';
import { dirname, extname } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { Command, InvalidArgumentError } from 'commander';
import type { MockKeys } from '../../common/mock-keys.js';
import { CoverageBody, type Coverage } from '../../mock/coverage/schema.js';
import { parseOperationList, restrictCoverage } from '../../mock/coverage/report.js';
import { CONTRACT_UNIVERSE } from '../../mock/coverage/universe.js';
import { DEFAULT_JWT_SECRET } from '../../mock/options.js';
import type { CoverageReport } from '../coverage/document.js';
import { checkMinimums, parsePercent, type Minimums } from '../coverage/gate.js';
import { coverageHtml } from '../coverage/html.js';
import { coverageText } from '../coverage/text.js';
import { flag, orgName, parsed } from '../options.js';
import { targetOptions } from '../target-options.js';
import { checkWritableFile } from '../preflight.js';
import { adminTokenOf, MintError } from '../mint-on-mock.js';
import { callMockAdmin } from '../mock-admin-call.js';

const NAME = 'opsapi coverage';
const REPORT_FORMATS = ['.json', '.html'];
const OPERATION_IDS = CONTRACT_UNIVERSE.operations.map((op) => op.operationId);

interface Flags {
  baseUrl: string;
  token?: string;
  org?: string;
  jwtSecret: string;
  adminKey?: string;
  teamKey?: string;
  header?: Record<string, string>;
  minOperations?: number;
  minPairs?: number;
  report?: string[];
  operations?: string[];
}

/** One line on stderr and the exit code (docs/DESIGN.md, "CLI and exit codes": 2 for usage errors and unreachable targets). */
function fail(code: 1 | 2, message: string): never {
  process.stderr.write(`${NAME}: ${message}\n`);
  process.exit(code);
}

const percent = parsed(parsePercent);
const operationList = parsed((text) => parseOperationList(text, OPERATION_IDS));
const collectRaw = (value: string, previous: string[] = []) => [...previous, value];

function header(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const at = value.indexOf(':');
  if (at <= 0) throw new InvalidArgumentError('expected "Name: value"');
  return { ...previous, [value.slice(0, at).trim()]: value.slice(at + 1).trim() };
}

/** Reads `GET /__mock/coverage` of the token's tenant: the coverage, or the one line that says why not (exit 2). */
async function readCoverage(
  baseUrl: string,
  token: string,
  headers: Record<string, string>,
  keys: MockKeys,
): Promise<Coverage> {
  const url = `${baseUrl.replace(/\/+$/, '')}/__mock/coverage`;
  const { status, json, said } = await callMockAdmin(
    { baseUrl, method: 'GET', path: '/__mock/coverage', keys, token, headers, timeoutMs: 30_000 },
    (message) => fail(2, message),
  );
  if (status !== 200) fail(2, `${url} answered ${status}${said ? `: ${said}` : ''}`);
  // Any server may answer 200: only a body of the documented shape is read as coverage.
  if (!Value.Check(CoverageBody, json))
    fail(2, `${url} answered 200 with a body that is not a coverage; is it the mock?`);
  return json;
}

/** Writes a report in the format its extension names. */
function writeReport(file: string, report: CoverageReport): void {
  const text = extname(file).toLowerCase() === '.json' ? `${JSON.stringify(report, null, 2)}\n` : coverageHtml(report);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * `opsapi coverage` (docs/DESIGN.md, "Testing API"): prints which operations and which declared status/code pairs the
 * tenant's traffic exercised on the mock, writes JSON/HTML reports, and exits 1 under a minimum (a gate for
 * client suites). Inferred: a target that answers but is not a mock with its admin API, or refuses the token, is
 * exit 2 like an unreachable one (the gate could not be read, so it neither passed nor failed).
 */
export function coverageCommand(): Command {
  return new Command('coverage')
    .description(
      "Show which operations and declared answers a tenant's traffic on the mock exercised; exit 1 under a minimum.",
    )
    .addOption(flag('--base-url <url>', 'the mock', 'BASE_URL').default(DEFAULT_MOCK_URL))
    .addOption(flag('--token <token>', 'access token of the tenant whose traffic counts (or --org)', 'TOKEN'))
    .addOption(
      flag('--org <org>', 'tenant, with a token minted with --jwt-secret (instead of --token)', 'ORG').argParser(
        orgName,
      ),
    )
    .addOption(
      flag('--jwt-secret <secret>', "the mock's --jwt-secret, for --org", 'JWT_SECRET').default(DEFAULT_JWT_SECRET),
    )
    .addOption(targetOptions.adminKey())
    .addOption(targetOptions.teamKey())
    .addOption(flag('--header <header>', 'extra request header "Name: value" (repeatable)', 'HEADER').argParser(header))
    .addOption(
      flag(
        '--min-operations <percent>',
        'exit 1 when fewer operations were called (e.g. 100%)',
        'MIN_OPERATIONS',
      ).argParser(percent),
    )
    .addOption(
      flag(
        '--min-pairs <percent>',
        'exit 1 when fewer declared status/code pairs were met (e.g. 80%)',
        'MIN_PAIRS',
      ).argParser(percent),
    )
    .addOption(flag('--report <file>', 'write a report: .json or .html (repeatable)', 'REPORT').argParser(collectRaw))
    .addOption(
      flag(
        '--operations <ids>',
        'count only these operationIds (comma-separated): the ones your client uses',
        'OPERATIONS',
      ).argParser(operationList),
    )
    .action(async (o: Flags) => {
      // An empty OPSAPI_TOKEN (a CI secret that is not set) is no credential.
      if (o.token === '') delete o.token;
      if (o.token === undefined && o.org === undefined)
        fail(2, "needs --token (or OPSAPI_TOKEN), or --org (or OPSAPI_ORG) with --team-key or the mock's --jwt-secret");
      if (o.token !== undefined && o.org !== undefined) fail(2, 'give --token or --org, not both');
      for (const file of o.report ?? []) {
        if (!REPORT_FORMATS.includes(extname(file).toLowerCase()))
          fail(2, `--report ${file}: use a .json or .html file name`);
        const writable = await checkWritableFile(file, '--report');
        if (!writable.ok) fail(2, writable.error);
      }
      const keys: MockKeys = { adminKey: o.adminKey || undefined, teamKey: o.teamKey || undefined };
      let token = o.token;
      try {
        token ??= await adminTokenOf({ ...o, org: o.org ?? '', teamKey: keys.teamKey }, 300);
      } catch (error) {
        if (error instanceof MintError) fail(2, error.message);
        throw error;
      }
      const full = await readCoverage(o.baseUrl, token, o.header ?? {}, keys);
      const coverage = o.operations ? restrictCoverage(full, o.operations) : full;
      const minimums: Minimums = {
        ...(o.minOperations !== undefined ? { operations: o.minOperations } : {}),
        ...(o.minPairs !== undefined ? { pairs: o.minPairs } : {}),
      };
      const gate = checkMinimums(coverage, minimums);
      const report: CoverageReport = {
        target: o.baseUrl,
        generatedAt: new Date().toISOString(),
        restrictedTo: o.operations ?? null,
        minimums,
        gate,
        coverage,
      };
      for (const file of o.report ?? []) {
        writeReport(file, report);
        // Said like `opsapi conform` and `opsapi proxy` say it: a CI log shows where the artifact is.
        process.stderr.write(`${NAME}: wrote ${file}\n`);
      }
      process.stdout.write(coverageText(coverage, o.baseUrl));
      for (const failure of gate.failures) process.stderr.write(`${NAME}: ${failure}\n`);
      process.exit(gate.ok ? 0 : 1);
    });
}
