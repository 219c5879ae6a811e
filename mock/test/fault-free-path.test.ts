import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * Planted faults (`--fault`) are a layer of their own (mock/faults/), wired by the composition root only: the
 * faithful request path must not know they exist. This reads the source of mock/ with the TypeScript parser
 * (comments and the words of strings are not code, so "defaults" or a comment citing mock/faults/ is no hit).
 */

const MOCK = fileURLToPath(new URL('..', import.meta.url));

/** The identifiers (and string keys) that name planted faults. */
const FAULT_NAMES = new Set(['faults', 'FaultName']);

/**
 * Where fault code belongs: the layer itself, the composition root, and the table of options, which declares the
 * `--fault` flag (its parser and type come from the layer: mock/faults/option.ts). All three are above the request path.
 */
function mayNameFaults(path: string): boolean {
  return path.startsWith(`faults${sep}`) || path === 'server.ts' || path === 'options.ts' || isTest(path);
}

function isTest(path: string): boolean {
  return path.split(sep).includes('test') || path.endsWith('.test.ts');
}

/** Every TypeScript source under mock/, relative to it. */
function sources(): string[] {
  return readdirSync(MOCK, { recursive: true, encoding: 'utf8' })
    .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
    .sort();
}

/** Each place a source names a fault identifier or imports a module of mock/faults/, as `line: text`. */
function faultMentions(fileName: string, text: string): { names: string[]; imports: string[] } {
  // Every hit spells one of these words somewhere in the text: a source without them needs no parse.
  if (!text.includes('faults') && !text.includes('FaultName')) return { names: [], imports: [] };
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const imports: string[] = [];
  const at = (node: ts.Node) =>
    `${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file).slice(0, 80)}`;
  const visit = (node: ts.Node): void => {
    if ((ts.isIdentifier(node) || ts.isStringLiteral(node)) && FAULT_NAMES.has(node.text)) names.push(at(node));
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (/(^|\/)faults(\/|\.js$)/.test(node.moduleSpecifier.text)) imports.push(at(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { names, imports };
}

describe('the faithful request path', () => {
  const files = sources();
  /** What each source that may not name faults names and imports of them: each file parsed once for both checks. */
  let mentions: { path: string; names: string[]; imports: string[] }[];

  beforeAll(() => {
    mentions = files
      .filter((path) => !mayNameFaults(path))
      .map((path) => ({ path, ...faultMentions(path, readFileSync(join(MOCK, path), 'utf8')) }));
  });

  it('is read from the whole source tree of the mock', () => {
    expect(files).toContain(join('http', 'operation-route.ts'));
    expect(files).toContain(join('faults', 'registry.ts'));
    expect(files.length).toBeGreaterThan(50);
  });

  it('names neither `faults` nor `FaultName` outside mock/faults/, mock/server.ts, the table of options and tests', () => {
    const found = mentions.flatMap(({ path, names }) => names.map((hit) => `${path}:${hit}`));
    expect(found).toEqual([]);
  });

  it('imports the planted-fault layer only from the composition root and the table of options', () => {
    const found = mentions.flatMap(({ path, imports }) => imports.map((hit) => `${path}:${hit}`));
    expect(found).toEqual([]);
  });
});

describe('the source check itself', () => {
  it('finds a fault named in code, as a property, a shorthand or a string key', () => {
    const code =
      "import type { FaultName } from '../faults/registry.js';\nconst a = ctx.faults.has('x');\nconst b = { faults };\nconst c = options['faults'];\n";
    expect(faultMentions('x.ts', code).names.map((h) => h.split(':')[0])).toEqual(['1', '2', '3', '4']);
    expect(faultMentions('x.ts', code).imports).toHaveLength(1);
  });

  it('ignores comments, words inside strings and names that merely contain the word', () => {
    const code =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is TypeScript source fed to the checker, not a template
      "// see mock/faults/registry.ts for the faults\nconst defaults = 'planted faults';\n/** faults */ const x = `${defaults} faults`;\n";
    expect(faultMentions('x.ts', code)).toEqual({ names: [], imports: [] });
  });

  it('tells where fault code may live', () => {
    expect(mayNameFaults(relative(MOCK, join(MOCK, 'faults', 'problems.ts')))).toBe(true);
    expect(mayNameFaults('server.ts')).toBe(true);
    expect(mayNameFaults(join('http', 'send.ts'))).toBe(false);
    expect(mayNameFaults('options.ts')).toBe(true);
    expect(mayNameFaults(join('handlers', 'items.ts'))).toBe(false);
  });
});
