import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parsePartialDataManifest } from '../../common/data-manifest.js';
import { DATA_FILE_SCHEMA_PATH, renderDataFileSchema } from '../data-file-schema.js';

/**
 * The format of `opsapi conform --data FILE` ships as a JSON Schema generated from the TypeBox schema the runner reads
 * the file with: the committed file is what the source generates, every object is closed, the README shows the path
 * and a complete example, and a file that misses the format is refused with every problem named at once.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = readFileSync(`${root}${DATA_FILE_SCHEMA_PATH}`, 'utf8');
const schema = JSON.parse(committed) as Record<string, unknown>;
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);

const SKU = {
  reference: 'SHFT-000001',
  inspectionIds: ['insp_1'],
  baseUnitOfMeasureId: 'uom_pcs',
  alternativeUnitOfMeasureId: 'uom_box',
  locationReference: 'WH1-B-06-03',
  lotId: 'lot_1',
};

/** The JSON block of the README's `--data` section (the one that names the schema). */
function readmeExample(): { section: string; example: unknown } {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const start = readme.indexOf('### The `--data` file');
  expect(start, 'README has a "### The `--data` file" section').toBeGreaterThan(0);
  const section = readme.slice(start, readme.indexOf('\n#', start + 1));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block, 'the section shows a JSON example').toBeDefined();
  return { section, example: JSON.parse(block as string) };
}

describe('the schema of the --data file', () => {
  it('is committed exactly as PartialDataManifest generates it (run `npm run spec` to refresh)', () => {
    expect(committed === renderDataFileSchema(), `${DATA_FILE_SCHEMA_PATH} drifted: run \`npm run spec\``).toBe(true);
  });

  it('says it is generated, not to be edited, and which command regenerates it', () => {
    expect(schema.$comment).toMatch(/^Generated from PartialDataManifest in common\/data-manifest\.ts; do not edit/);
    expect(schema.$comment).toContain('`npm run spec`');
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: { spec: string } };
    expect(pkg.scripts.spec).toContain('conformance/write-data-file-schema.ts');
  });

  it('closes every object and requires the fields of each entry, but no top-level key', () => {
    const objects: Record<string, unknown>[] = [];
    const walk = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (o.type === 'object') objects.push(o);
      for (const v of Object.values(o)) walk(v);
    };
    walk(schema);
    expect(objects.length).toBe(5); // the file, `sku` and the three purchase order lines
    for (const o of objects) expect(o.additionalProperties).toBe(false);
    expect(schema.required).toBeUndefined();
    expect(objects.slice(1).every((o) => Array.isArray(o.required) && o.required.length > 0)).toBe(true);
  });

  it('ships in the package, under its own export', () => {
    const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(pkg.files).toContain(DATA_FILE_SCHEMA_PATH);
    expect(pkg.exports['./data-file.schema.json']).toBe(`./${DATA_FILE_SCHEMA_PATH}`);
  });

  it('is shown in the README: its path, and a complete example both the schema and the runner accept', () => {
    const { section, example } = readmeExample();
    expect(section).toContain(DATA_FILE_SCHEMA_PATH);
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
    expect(parsePartialDataManifest(example).ok).toBe(true);
    expect(Object.keys(example as object).sort()).toEqual(Object.keys(schema.properties as object).sort());
  });
});

describe('a --data file that misses the format', () => {
  it('is refused with every missing or wrong field and unknown key named at once, nested too', () => {
    const file = {
      sku: { ...SKU, lotId: 7 },
      cancelledPurchaseOrderLine: { purchaseOrderId: 'po_1' },
      foo: 1,
    };
    const parsed = parsePartialDataManifest(file);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toBe(
      '/sku/lotId: expected string; /cancelledPurchaseOrderLine/lineId: required; /foo: unknown key',
    );
    expect(validate(file)).toBe(false);
  });

  it('names an unknown key inside an entry, and an empty identifier', () => {
    const { lotId: _lotId, ...withoutLot } = SKU;
    const parsed = parsePartialDataManifest({ sku: { ...withoutLot, lotID: 'lot_1' }, deletableFamilyId: '' });
    expect(!parsed.ok && parsed.problems).toEqual([
      '/sku/lotId: required',
      '/deletableFamilyId: expected a non-empty string',
      '/sku/lotID: unknown key',
    ]);
  });

  it('takes any subset of the entries, each complete', () => {
    expect(parsePartialDataManifest({}).ok).toBe(true);
    expect(parsePartialDataManifest({ sku: SKU }).ok).toBe(true);
    expect(validate({ sku: SKU })).toBe(true);
  });

  it('drops unknown keys only when asked (the fixtures of a mock of another version)', () => {
    const parsed = parsePartialDataManifest({ sku: { ...SKU, extra: 1 }, later: true }, { unknownKeys: 'drop' });
    expect(parsed).toEqual({ ok: true, value: { sku: SKU } });
  });
});
