import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { renderArtifacts } from './artifacts.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const files = await renderArtifacts();
for (const [path, content] of Object.entries(files)) {
  await writeFile(join(root, path), content);
  console.log(`wrote ${path} (${content.length} bytes)`);
}
