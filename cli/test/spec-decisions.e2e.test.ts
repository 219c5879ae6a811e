import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_VERSION } from '../../spec/build.js';
import { DECISION_FORMAT } from '../../spec/decisions/index.js';
import { opsapi, stderrLines } from './run-cli.js';

const TARGET = 'https://ops.example.test';

/** A decision file as `opsapi learn --out` writes it, with two decisions the target settled otherwise. */
const LEARNED = {
  format: DECISION_FORMAT,
  contractVersion: CONTRACT_VERSION,
  target: TARGET,
  date: '2025-03-01T10:00:00Z',
  tool: 'opsapi learn (test)',
  decisions: [
    { id: 'success-status:createApiKey', title: '', inferred: 201, observed: 200, differs: true, evidence: [] },
    { id: 'text-case', title: '', inferred: 'insensitive', observed: 'sensitive', differs: true, evidence: [] },
  ],
  notObserved: [],
};

describe('opsapi spec --decisions FILE --out FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opsapi-spec-decisions-'));
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const learned = write('learned.json', JSON.stringify(LEARNED));

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the contract adapted to the file and says how many points it marked observed', async () => {
    const out = join(dir, 'adapted.json');
    const run = await opsapi(['spec', '--decisions', learned, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(`${out}: 2 decision point(s) marked observed (${TARGET})\n`);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    const responses = doc.paths['/v1/access/apiKeys'].post.responses;
    expect(Object.keys(responses)).toContain('200');
    expect(responses['200']['x-provenance']).toBe('observed');
    expect(doc['x-decisions'].observed.map((d: { id: string }) => d.id)).toEqual([
      'success-status:createApiKey',
      'text-case',
    ]);
  });

  it('writes YAML to a file named .yaml', async () => {
    const out = join(dir, 'adapted.yaml');
    const run = await opsapi(['spec', '--decisions', learned, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const doc = parse(readFileSync(out, 'utf8'));
    expect(doc['x-decisions'].target).toBe(TARGET);
  });

  // Every kind of refused file is told apart by readDecisionFile (cli/test/read-decisions.test.ts); here, the command.
  it.each([
    {
      what: 'a file of another contract version',
      file: () => write('old.json', JSON.stringify({ ...LEARNED, contractVersion: '0.0.1' })),
      says: /learned for contract version "0\.0\.1"/,
    },
  ])('refuses $what in one line, exits 2 and writes nothing', async ({ file, says }) => {
    const out = join(dir, 'refused.json');
    const path = file();
    const run = await opsapi(['spec', '--decisions', path, '--out', out]);
    expect(run.code, run.stderr).toBe(2);
    const lines = stderrLines(run);
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^opsapi spec: --decisions ${path.replaceAll('.', '\\.')}`));
    expect(lines[0]).toMatch(says);
    expect(run.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
  });
});
