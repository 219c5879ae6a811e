import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DO_NOT_EDIT, renderArtifacts } from '../artifacts.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('generated contract files', async () => {
  const files = await renderArtifacts();

  it.each(Object.keys(files))(
    '%s is committed exactly as the TypeScript sources generate it (run `npm run spec` to refresh)',
    (path) => {
      const committed = readFileSync(`${root}${path}`, 'utf8');
      expect(
        committed === files[path],
        `${path} drifted from spec/*.ts: run \`npm run spec\` and commit the result`,
      ).toBe(true);
    },
  );

  it.each(Object.keys(files))('%s starts with a do-not-edit note', (path) => {
    const head = readFileSync(`${root}${path}`, 'utf8').slice(0, 400);
    expect(head).toContain(DO_NOT_EDIT);
  });
});
