import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesUnder, sectionBlocks } from './readme-examples.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const SECTION = '## Use it from your tests';
const shown = sectionBlocks(readFileSync(join(root, 'README.md'), 'utf8'), SECTION);

describe(`the README's "Use it from your tests" examples`, () => {
  it('are each titled with the example file they show', () => {
    expect(shown, `README.md has the section ${SECTION}`).not.toBeNull();
    expect(shown?.map((block) => block.title)).toEqual(shown?.map(() => expect.stringMatching(/^examples\//)));
  });

  it('show every file of examples/, a Vitest test and a Jest test with its config', () => {
    expect(shown?.map((block) => block.title).sort()).toEqual(filesUnder(root, 'examples'));
    expect(filesUnder(root, 'examples')).toEqual(
      expect.arrayContaining(['examples/vitest/stock.test.ts', 'examples/jest/stock.test.mjs']),
    );
  });

  it('show each file exactly as it is in the repository, so they show code the test suite runs', () => {
    for (const block of shown ?? [])
      expect(block.code, `${block.title} in README.md`).toBe(readFileSync(join(root, block.title ?? ''), 'utf8'));
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
