import { Command, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { buildDocument } from '../../spec/build.js';
import { checkWritableFile, oneLine, systemErrorCode } from '../preflight.js';

/** `opsapi spec`: prints or writes the contract document. */
export function specCommand(): Command {
  return new Command('spec')
    .description('Print the OpenAPI 3.1 contract (JSON or YAML).')
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'yaml']).default('json'))
    .option('--out <file>', 'write to a file instead of stdout')
    .action(async (o: { format: 'json' | 'yaml'; out?: string }) => {
      const refuse = (line: string): never => {
        process.stderr.write(`opsapi spec: ${line}\n`);
        process.exit(2);
      };
      // A bad --out is a usage error: one line and exit 2, checked before the document is built (inferred).
      if (o.out !== undefined) {
        const writable = await checkWritableFile(o.out, '--out');
        if (!writable.ok) refuse(writable.error);
      }
      const doc = buildDocument();
      const text =
        o.format === 'yaml'
          ? stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })
          : `${JSON.stringify(doc, null, 2)}\n`;
      if (o.out === undefined) return void process.stdout.write(text);
      try {
        await writeFile(o.out, text);
      } catch (error) {
        if (systemErrorCode(error)) refuse(`cannot write ${o.out}: ${oneLine(error)}`);
        throw error;
      }
    });
}
