/** Writes conformance/data-file.schema.json from its TypeBox source (part of `npm run spec`). */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DATA_FILE_SCHEMA_PATH, renderDataFileSchema } from './data-file-schema.js';

const target = fileURLToPath(new URL(`../${DATA_FILE_SCHEMA_PATH}`, import.meta.url));
writeFileSync(target, renderDataFileSchema());
console.log(`wrote ${DATA_FILE_SCHEMA_PATH}`);
