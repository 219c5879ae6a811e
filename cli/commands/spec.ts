import { Command, Option } from 'commander';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';
import { buildDocument } from '../../spec/build.js';
import { withObservedDecisions } from '../../spec/decisions/publish.js';
import { checkWritableFile, oneLine, systemErrorCode } from '../preflight.js';
import { readDecisionFile } from '../read-decisions.js';

/** `opsapi spec`: prints or writes the contract document, adapted to a decision file with `--decisions`. */
export function specCommand(): Command {
  return new Command('spec')
    .description('Print the OpenAPI 3.1 contract (JSON or YAML).')
    .addOption(
      new Option('--format <format>', 'output format (default: yaml for an --out ending in .yaml/.yml, else json)')
        .choices(['json', 'yaml'])
        .default('json'),
    )
    .option('--out <file>', 'write to a file instead of stdout')
    .option(
      '--decisions <file>',
      'a decision file of `opsapi learn`: publish the contract adapted to it, its decisions marked x-provenance: observed',
    )
    .action(async (o: { format: 'json' | 'yaml'; out?: string; decisions?: string }, command: Command) => {
      const refuse = (line: string): never => {
        process.stderr.write(`opsapi spec: ${line}\n`);
        process.exit(2);
      };
      // A bad --out or --decisions is a usage error: one line and exit 2, checked before the document is built (inferred).
      if (o.out !== undefined) {
        const writable = await checkWritableFile(o.out, '--out');
        if (!writable.ok) refuse(writable.error);
      }
      const read = o.decisions === undefined ? undefined : await readDecisionFile(o.decisions);
      if (read && !read.ok) return refuse(read.error);
      const doc = read ? withObservedDecisions(buildDocument(), read.file) : buildDocument();
      // An --out named .yaml/.yml gets YAML unless --format says otherwise (inferred: the name says what it holds).
      const yamlByName = command.getOptionValueSource('format') === 'default' && /\.ya?ml$/i.test(o.out ?? '');
      const text =
        o.format === 'yaml' || yamlByName
          ? stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })
          : `${JSON.stringify(doc, null, 2)}\n`;
      const marked = read
        ? `${read.file.decisions.length} decision point(s) marked observed (${read.file.target})`
        : '';
      if (o.out === undefined) {
        process.stdout.write(text);
        if (marked) process.stderr.write(`opsapi spec: ${marked}\n`);
        return;
      }
      try {
        await writeFile(o.out, text);
      } catch (error) {
        if (systemErrorCode(error)) refuse(`cannot write ${o.out}: ${oneLine(error)}`);
        throw error;
      }
      if (marked) process.stdout.write(`${o.out}: ${marked}\n`);
    });
}
