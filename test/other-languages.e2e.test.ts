import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChild } from '../common/process.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SECTION = '### Other languages and containers';

/** The code blocks of one language in the README's "Other languages and containers" section (until the next heading). */
function blocks(language: string): string[] {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n');
  const found: string[] = [];
  let inSection = false;
  let fence: string | null = null;
  let code: string[] = [];
  for (const line of lines) {
    if (fence === null && /^#{1,6} /.test(line)) inSection = line === SECTION;
    else if (!inSection) continue;
    else if (fence === null && line.startsWith('```')) {
      fence = line.slice(3).trim();
      code = [];
    } else if (fence !== null && line === '```') {
      if (fence === language) found.push(`${code.join('\n')}\n`);
      fence = null;
    } else if (fence !== null) code.push(line);
  }
  return found;
}

/** The `python3` on the PATH, as an absolute path, when it has pytest (checked once, bounded); else null. */
const python = (() => {
  const probe = spawnSync('python3', ['-c', 'import sys, pytest; print(sys.executable)'], {
    timeout: 10_000,
    encoding: 'utf8',
  });
  return probe.status === 0 && probe.stdout.trim() !== '' ? probe.stdout.trim() : null;
})();
if (!python) console.warn('python3 with pytest is not installed here; the README pytest example is not run');

/** The fields `opsapi mock --print-json` prints (docs/DESIGN.md, "Testing API"). */
const PRINTED = ['url', 'port', 'adminToken', 'limitedToken', 'webhookSecret', 'org'];

describe('the README examples for other languages', () => {
  it('show one Java and one pytest example that start `opsapi mock --port 0 --print-json` from the checkout', () => {
    for (const language of ['java', 'python']) {
      const found = blocks(language);
      expect(found, language).toHaveLength(1);
      expect(found[0], language).toMatch(/"opsapi-kit\/bin\/opsapi\.js", "mock", "--port", "0", "--print-json"/);
    }
  });

  it('read only fields the line has', () => {
    const java = [...(blocks('java')[0] ?? '').matchAll(/info\.get\("(\w+)"\)/g)].map((m) => m[1]);
    const python = [...(blocks('python')[0] ?? '').matchAll(/mock\['(\w+)'\]/g)].map((m) => m[1]);
    expect(java.length + python.length).toBeGreaterThan(0);
    for (const field of [...java, ...python]) expect(PRINTED).toContain(field);
  });
});

describe.skipIf(!python)('the README pytest example, run by pytest as written', () => {
  let dir: string;

  beforeAll(() => {
    // A project beside the kit's checkout, as the README lays it out: `opsapi-kit/` is the checkout.
    dir = mkdtempSync(join(tmpdir(), 'opsapi-pytest-'));
    symlinkSync(ROOT, join(dir, 'opsapi-kit'));
    writeFileSync(join(dir, 'test_readme_example.py'), blocks('python')[0] ?? '');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes: the mock started, its line was read, the admin token listed a SKU and the mock stopped', async () => {
    const child = startChild(
      python ?? 'python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_readme_example.py'],
      {
        cwd: dir,
        name: 'pytest',
        // `node` of this run first on the PATH, as a developer's shell would have it.
        env: {
          PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`,
          PYTHONDONTWRITEBYTECODE: '1',
        },
      },
    );
    const timer = setTimeout(() => void child.stop(), 90_000);
    const status = await child.exited;
    clearTimeout(timer);
    expect(status.code, child.output()).toBe(0);
    expect(child.output()).toMatch(/1 passed/);
  }, 120_000);
});
