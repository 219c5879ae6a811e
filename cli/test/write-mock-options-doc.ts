/** Rewrites the README's generated table of mock options from mock/options.ts (cli/test/mock-options-doc.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withMockOptionsBlock } from './mock-options-doc.js';

const readme = fileURLToPath(new URL('../../README.md', import.meta.url));
writeFileSync(readme, withMockOptionsBlock(readFileSync(readme, 'utf8')));
console.log('wrote the table of mock options in README.md');
