import { MOCK_OPTIONS, type MockOptionName } from '../../mock/options.js';
import type { MockOption } from '../../mock/options/kinds.js';
import { mockFlags } from '../commands/mock-flags.js';

/**
 * The README's table of the options of `opsapi mock` and `startMock`, generated from the mock's table
 * (mock/options.ts) so that no default, bound or variable is written twice; mock-options-doc.test.ts fails when the
 * README's copy differs. Kept with the tests: nothing of it ships.
 */

/** The command that rewrites the README's table. */
export const WRITE_COMMAND = 'npx tsx cli/test/write-mock-options-doc.ts';

/** The first line of the generated block: where it comes from, and that it is not edited by hand. */
export const BEGIN = `<!-- Generated from mock/options.ts by \`${WRITE_COMMAND}\`. Do not edit: change the table and regenerate. -->`;
const END = '<!-- End of the generated table of mock options. -->';

/** The flags of `opsapi mock`: one per option of the table, then the CLI's own output flags. */
const FLAGS = mockFlags();
const OUTPUT_FLAGS = FLAGS.slice(Object.keys(MOCK_OPTIONS).length);

/** An option's default as `--help` shows it, or null when it shows none. */
const defaultText = (spec: MockOption): string | null =>
  FLAGS.find((o) => o.flags === spec.flag)?.defaultValueDescription ?? null;

const code = (text: string) => `\`${text}\``;
const cell = (text: string) => text.replaceAll('|', '\\|');

/** The default as the README shows it: as `--help` shows it, text unquoted, "off" for a switch, "none" for no value. */
function defaultCell(spec: MockOption): string {
  if (spec.value.kind === 'switch') return 'off';
  if (spec.value.kind === 'text' && typeof spec.default === 'string') return code(spec.default);
  const shown = defaultText(spec);
  if (shown === null) return 'none';
  return spec.default === null && spec.unset ? shown : code(shown);
}

/** The default cell, with `startMock`'s own default where it has one. */
function defaultsCell(spec: MockOption): string {
  const own = spec.startMockDefault;
  return own === undefined ? defaultCell(spec) : `${defaultCell(spec)} (\`startMock\`: ${code(JSON.stringify(own))})`;
}

/** The Markdown table, a row per flag in the order of `opsapi mock --help`. */
function renderMockOptionsTable(): string {
  const rows = (Object.entries(MOCK_OPTIONS) as [MockOptionName, MockOption][]).map(([field, spec]) => [
    code(spec.flag),
    code(`OPSAPI_${spec.env}`),
    code(spec.name ?? field),
    defaultsCell(spec),
    spec.help,
  ]);
  const output = OUTPUT_FLAGS.map((o) => [code(o.flags), code(o.envVar ?? ''), '-', 'off', o.description]);
  const body = [...rows, ...output].map((row) => row.map(cell));
  const head = ['Flag', 'Variable', '`startMock`', 'Default', 'Meaning'];
  // Columns padded to their widest cell, as the repository's formatter (biome) writes Markdown tables.
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The generated block, between its markers. */
export const renderMockOptionsBlock = (): string => `${BEGIN}\n\n${renderMockOptionsTable()}\n\n${END}`;

/** The README's generated block as it stands, or null when its markers are missing. */
export function mockOptionsBlockOf(readme: string): string | null {
  const from = readme.indexOf(BEGIN);
  const to = readme.indexOf(END, from);
  return from < 0 || to < 0 ? null : readme.slice(from, to + END.length);
}

/** The README with its generated block rewritten from the table. */
export function withMockOptionsBlock(readme: string): string {
  const block = mockOptionsBlockOf(readme);
  if (block === null) throw new Error(`README.md has no generated block of mock options (a line "${BEGIN}")`);
  return readme.replace(block, () => renderMockOptionsBlock());
}
