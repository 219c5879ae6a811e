import { PartialDataManifest } from '../common/data-manifest.js';

/** Where the schema of the `--data` file ships (in the package too: `opsapi/data-file.schema.json`). */
export const DATA_FILE_SCHEMA_PATH = 'conformance/data-file.schema.json';

/** The schema's `$comment`: what makes it, so nobody edits it by hand. */
const DATA_FILE_SCHEMA_NOTE =
  'Generated from PartialDataManifest in common/data-manifest.ts; do not edit: run `npm run spec` (conformance/write-data-file-schema.ts) to regenerate it. A test fails when it drifts from its source.';

/** JSON Schema keywords first, in reading order; the rest (`properties` of a record) as they come. */
const ORDER = ['$schema', '$id', '$comment', 'title', 'description', 'type', 'minLength', 'items', 'required'];

/** A copy of a schema with its keywords in reading order (and TypeBox's symbol-keyed marks dropped). */
function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const rank = (key: string) => (ORDER.includes(key) ? ORDER.indexOf(key) : key === 'properties' ? 90 : 95);
  // Only a schema's keywords are sorted; the names under `properties` keep the manifest's order.
  const isSchema = entries.some(([k]) => k === 'type');
  const sorted = isSchema ? entries.sort(([a], [b]) => rank(a) - rank(b)) : entries;
  return Object.fromEntries(sorted.map(([k, v]) => [k, ordered(v)]));
}

/**
 * The JSON Schema (2020-12) of a `--data` file, from the TypeBox schema the runner validates it with: every key is
 * optional at the top (a partial manifest: a check whose entry is missing is skipped), the fields of an entry are
 * required, and no object takes a key the manifest does not name.
 */
export function renderDataFileSchema(): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: DATA_FILE_SCHEMA_NOTE,
    title: 'opsapi conform --data file',
    description:
      'Disposable records of the deployment the runner may address and change (the GET /__mock/fixtures format). Every top-level key is optional: the checks that need a missing one are skipped with that reason.',
    ...(JSON.parse(JSON.stringify(PartialDataManifest)) as Record<string, unknown>),
  };
  return `${JSON.stringify(ordered(schema), null, 2)}\n`;
}
