import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  mockOptionsBlockOf,
  renderMockOptionsBlock,
  WRITE_COMMAND,
  withMockOptionsBlock,
} from './mock-options-doc.js';
import { ROOT } from './run-cli.js';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe("the README's table of mock options", () => {
  it('is there once, under a line saying it is generated and not edited by hand', () => {
    expect(readme.split(BEGIN)).toHaveLength(2);
    expect(BEGIN).toMatch(/Do not edit/);
    expect(BEGIN).toContain(WRITE_COMMAND);
  });

  it(`is the table mock/options.ts generates (run \`${WRITE_COMMAND}\` to refresh it)`, () => {
    expect(mockOptionsBlockOf(readme), `README.md drifted from mock/options.ts: run \`${WRITE_COMMAND}\``).toBe(
      renderMockOptionsBlock(),
    );
  });

  it('is rewritten in place, the text around it kept', () => {
    const stale = `before\n\n${BEGIN}\n\n| old |\n\n<!-- End of the generated table of mock options. -->\n\nafter\n`;
    expect(withMockOptionsBlock(stale)).toBe(`before\n\n${renderMockOptionsBlock()}\n\nafter\n`);
    expect(() => withMockOptionsBlock('no table')).toThrow(/no generated block/);
  });
});
