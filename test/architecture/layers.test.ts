import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  ALLOWED,
  cycles,
  layerOf,
  MOCK_LAYERS,
  mockLayerOf,
  mockViolations,
  readSources,
  violations,
  type Layer,
} from './import-graph.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = readSources(root);

/** Generated files and the transcribed error catalog may be long; hand-written sources may not. */
const LONG_ALLOWED = new Set(['spec/examples/demo-world.ts', 'spec/errors/codes.ts']);
const MAX_LINES = 400;

/** Lines as `wc -l` counts them: a final newline ends the last line, it does not start another. */
const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

describe('the layers of the kit', () => {
  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(200);
    for (const layer of [
      'spec',
      'common',
      'fixtures',
      'mock',
      'conformance',
      'cli',
      'api',
      'bench',
      'test',
    ] as Layer[]) {
      expect(
        files.some((f) => f.layer === layer),
        `no file in layer ${layer}`,
      ).toBe(true);
    }
  });

  it('only ever import downwards (spec at the bottom; the runner never imports the mock; benchmarks and tests use the public API)', () => {
    expect(violations(files).map((v) => `${v.from} -> ${v.to} (${v.rule})`)).toEqual([]);
  });

  it('have no import cycle among the sources', () => {
    expect(cycles(files)).toEqual([]);
  });

  it('allow no arrow up: the allowed layers form a DAG', () => {
    const order: Layer[] = ['spec', 'common', 'fixtures', 'mock', 'conformance', 'cli', 'api', 'bench', 'test'];
    for (const [layer, allowed] of Object.entries(ALLOWED) as [Layer, readonly Layer[]][]) {
      for (const target of allowed) {
        if (target === layer || layer === 'test' || layer === 'bench') continue;
        expect(order.indexOf(target), `${layer} -> ${target}`).toBeLessThan(order.indexOf(layer));
      }
    }
  });

  it('catch an upward import (the checker itself can fail)', () => {
    const bad = violations([
      { path: 'spec/x.ts', layer: 'spec', isTest: false, imports: ['mock/server.ts'] },
      { path: 'conformance/y.ts', layer: 'conformance', isTest: false, imports: ['mock/options.ts'] },
    ]);
    expect(bad.map((v) => v.from)).toEqual(['spec/x.ts', 'conformance/y.ts']);
    expect(
      cycles([
        { path: 'mock/a.ts', layer: 'mock', isTest: false, imports: ['mock/b.ts'] },
        { path: 'mock/b.ts', layer: 'mock', isTest: false, imports: ['mock/a.ts'] },
      ]),
    ).toEqual([['mock/a.ts', 'mock/b.ts']]);
    expect(layerOf('index.ts')).toBe('api');
  });

  it('inside mock/, only ever import downwards: core, behaviour, HTTP shell, admin, decorators, root', () => {
    expect(mockViolations(files).map((v) => `${v.from} -> ${v.to} (${v.rule})`)).toEqual([]);
    // Every inner layer holds some file, so a renamed folder cannot silently leave the drawing.
    for (const [i, layer] of MOCK_LAYERS.entries())
      expect(
        files.some((f) => f.layer === 'mock' && mockLayerOf(f.path) === i),
        layer.name,
      ).toBe(true);
  });

  it('catch an upward import inside mock/ (the checker itself can fail)', () => {
    const file = (path: string, imports: string[]) => ({ path, layer: 'mock' as const, isTest: false, imports });
    const bad = mockViolations([
      file('mock/http/app.ts', ['mock/admin/routes.ts']),
      file('mock/store/id-floor.ts', ['mock/persistence/records.ts']),
      file('mock/faults/index.ts', ['mock/decisions/index.ts']),
      file('mock/handlers/items.ts', ['mock/lists/index.ts']),
      file('mock/elsewhere.ts', []),
    ]);
    expect(bad.map((v) => v.from)).toEqual([
      'mock/http/app.ts',
      'mock/store/id-floor.ts',
      'mock/faults/index.ts',
      'mock/elsewhere.ts',
    ]);
  });

  it(`keep hand-written source files at ${MAX_LINES} lines or fewer`, () => {
    const long = files
      .filter((f) => !LONG_ALLOWED.has(f.path))
      .map((f) => ({ path: f.path, lines: lineCount(readFileSync(`${root}${f.path}`, 'utf8')) }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
