import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  DEFAULT_JWT_SECRET,
  DEFAULT_ORG,
  type Mock,
  adminClaims,
  buildMock,
  mintToken,
} from '../index.js';
import { filesUnder, sectionBlocks } from './readme-examples.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const SECTION = '## Use it from your tests';
const CERTIFY_SECTION = '## Certify your client';
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const shown = sectionBlocks(readme, SECTION);
/** The blocks of "Certify your client" that show a file: every block but its shell commands. */
const certifyShown = sectionBlocks(readme, CERTIFY_SECTION)?.filter((block) => block.language !== 'sh') ?? null;

/** Each block is the text of the file its title names, so the README shows code the test suite runs. */
function expectShownAsInRepository(blocks: readonly { title: string | null; code: string }[] | null): void {
  for (const block of blocks ?? [])
    expect(block.code, `${block.title} in README.md`).toBe(readFileSync(join(root, block.title ?? ''), 'utf8'));
}

describe(`the README's "Use it from your tests" examples`, () => {
  it('are each titled with the example file they show', () => {
    expect(shown, `README.md has the section ${SECTION}`).not.toBeNull();
    expect(shown?.map((block) => block.title)).toEqual(shown?.map(() => expect.stringMatching(/^examples\//)));
  });

  it('with the one of "Certify your client", show every file of examples/, a Vitest test and a Jest test with its config', () => {
    const titles = [...(shown ?? []), ...(certifyShown ?? [])].map((block) => block.title);
    expect(titles.sort()).toEqual(filesUnder(root, 'examples'));
    expect(filesUnder(root, 'examples')).toEqual(
      expect.arrayContaining(['examples/vitest/stock.test.ts', 'examples/jest/stock.test.mjs']),
    );
  });

  it('show each file exactly as it is in the repository, so they show code the test suite runs', () => {
    expectShownAsInRepository(shown);
  });

  it('read a section up to the next heading of its level, and a # line inside a block as code', () => {
    const markdown = [
      '## A',
      '```sh title="x"',
      '# not a heading',
      '```',
      '### B',
      '```js',
      'b',
      '```',
      '## C',
      '```',
      'c',
      '```',
    ];
    expect(sectionBlocks(markdown.join('\n'), '## A')).toEqual([
      { language: 'sh', title: 'x', code: '# not a heading\n' },
      { language: 'js', title: null, code: 'b\n' },
    ]);
    expect(sectionBlocks('## A', '## Z')).toBeNull();
  });
});

describe(`the README's "Certify your client" example`, () => {
  it('is titled with the Vitest file it shows; its other blocks are shell commands', () => {
    expect(certifyShown, `README.md has the section ${CERTIFY_SECTION}`).not.toBeNull();
    expect(certifyShown?.map((block) => block.title)).toEqual(['examples/vitest/client-checks.e2e.test.ts']);
  });

  it('shows the file exactly as it is in the repository, so it shows code the test suite runs', () => {
    expectShownAsInRepository(certifyShown);
  });
});

/** The address of each `curl` line of "Using the mock" that lists SKUs with a `filterBy`. */
function filterExamples(): URL[] {
  const blocks = sectionBlocks(readme, '## Using the mock') ?? [];
  return blocks
    .flatMap((block) => block.code.split('\n'))
    .filter((line) => line.startsWith('curl') && line.includes('filterBy='))
    .map((line) => new URL(/'(http:\/\/[^']+)'/.exec(line)?.[1] ?? 'http://invalid/'));
}

describe(`the README's "Using the mock" examples, on a mock with the embedded defaults (as \`npm start\`)`, () => {
  let mock: Mock;
  let token: string;

  beforeAll(async () => {
    mock = await buildMock();
    token = await mintToken(DEFAULT_JWT_SECRET, adminClaims(DEFAULT_ORG));
  });

  afterAll(async () => {
    await mock?.close();
  });

  it('filter SKUs of the seed: each filter example finds at least one', async () => {
    const examples = filterExamples();
    expect(examples.length, 'a curl line with filterBy in "Using the mock"').toBeGreaterThan(0);
    for (const url of examples) {
      expect(url.origin).toBe('http://127.0.0.1:4010');
      const reply = await mock.app.inject({
        method: 'GET',
        url: `${url.pathname}${url.search}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(reply.statusCode, reply.body).toBe(200);
      const page = reply.json() as { results: unknown[]; totalCount: number };
      expect(page.totalCount, url.search).toBeGreaterThan(0);
      expect(page.results.length).toBeGreaterThan(0);
    }
  });
});

describe('the permissions the README and the examples name', () => {
  it('are permissions an operation of the contract needs', () => {
    const texts = [readme, ...filesUnder(root, 'examples').map((f) => readFileSync(join(root, f), 'utf8'))];
    const named = texts.flatMap((text) =>
      [...text.matchAll(/permissions: \[([^\]]*)\]/g)].flatMap((m) => [...(m[1] ?? '').matchAll(/'([^']+)'/g)]),
    );
    const names = named.map((m) => m[1]);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(ALL_PERMISSIONS, `${name} in a permissions list`).toContain(name);
  });
});
