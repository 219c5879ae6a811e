/** `--decisions FILE` of `opsapi mock`, `conform` and `spec`: every kind of refused file is named in one line. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decisionFile } from '../../spec/decisions/test/decision-file.js';
import { readDecisionFile } from '../read-decisions.js';

const dir = mkdtempSync(join(tmpdir(), 'opsapi-read-decisions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = decisionFile({ 'text-case': 'sensitive' });

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('readDecisionFile', () => {
  it('reads a file opsapi learn wrote', async () => {
    const read = await readDecisionFile(file('good.json', JSON.stringify(GOOD)));
    expect(read.ok && read.file.decisions.map((d) => d.id)).toEqual(['text-case']);
  });

  it.each([
    { what: 'a file that does not exist', name: null, content: '', says: /cannot read it \(ENOENT/ },
    { what: 'a file that is not JSON', name: 'not.json', content: '{"format": ', says: /is not JSON/ },
    {
      what: 'a file of another format',
      name: 'format.json',
      content: JSON.stringify({ ...GOOD, format: 'something-else/1' }),
      says: /format is "something-else\/1"/,
    },
    {
      what: 'a file learned for another contract version',
      name: 'version.json',
      content: JSON.stringify({ ...GOOD, contractVersion: '0.0.1-old' }),
      says: /contract version "0\.0\.1-old"/,
    },
    {
      what: 'an unknown decision id',
      name: 'unknown.json',
      content: JSON.stringify(decisionFile({ 'code-status:NO.SUCH.CODE': 404 })),
      says: /unknown decision "code-status:NO\.SUCH\.CODE"/,
    },
    {
      what: 'a bad value',
      name: 'value.json',
      content: JSON.stringify(decisionFile({ 'text-case': 'sometimes' })),
      says: /"text-case": observed must be one of insensitive, sensitive/,
    },
    {
      what: 'an unknown id that spans lines',
      name: 'lines.json',
      content: JSON.stringify(decisionFile({ 'a\nb': 1 })),
      says: /unknown decision/,
    },
  ])('refuses $what in one line naming the file', async ({ name, content, says }) => {
    const path = name === null ? join(dir, 'missing.json') : file(name, content);
    const read = await readDecisionFile(path);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.error).toMatch(says);
    expect(read.error.startsWith(`--decisions ${path}`)).toBe(true);
    expect(read.error).not.toContain('\n');
  });
});
