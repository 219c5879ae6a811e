import { Command, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { buildDocument } from '../../spec/build.js';

/** `opsapi spec`: prints or writes the contract document. */
export function specCommand(): Command {
  return new Command('spec')
    .description('Print the OpenAPI 3.1 contract (JSON or YAML).')
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'yaml']).default('json'))
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (o: { format: 'json' | 'yaml'; out?: string }) => {
      const doc = buildDocument();
      const text = o.format === 'yaml' ? stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }) : `${JSON.stringify(doc, null, 2)}\n`;
      if (o.out) await writeFile(o.out, text);
      else process.stdout.write(text);
    });
}
