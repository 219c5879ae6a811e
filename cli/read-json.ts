import { readFileSync } from 'node:fs';
import { parsePartialDataManifest, type PartialDataManifest } from '../common/data-manifest.js';
import { UsageError } from '../conformance/errors.js';

/** A JSON file a flag names, or a usage error saying which flag and why (unreadable, not JSON). */
export function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${what}: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UsageError(`${what}: ${file} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The `--data` file of `conform` and `learn` (conformance/data-file.schema.json): every problem at once (a missing
 * field, a wrong type, an unknown key, nested too), in one line.
 */
export function readDataFile(file: string): PartialDataManifest {
  const parsed = parsePartialDataManifest(readJson(file, '--data'));
  if (!parsed.ok) throw new UsageError(`--data ${file}: ${parsed.error}`);
  return parsed.value;
}
