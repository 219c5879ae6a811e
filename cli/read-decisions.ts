import { readFile } from 'node:fs/promises';
import { type DecisionFile, parseDecisionFile } from '../spec/decisions/index.js';
import { oneLine, systemErrorCode } from './preflight.js';

/**
 * Reads the decision file of a `--decisions` flag (`opsapi learn --out`): the file, or one line saying why it is
 * refused (unreadable, not JSON, or refused by `parseDecisionFile`). A bad file is a usage error (exit 2, inferred).
 */
export async function readDecisionFile(
  path: string,
): Promise<{ ok: true; file: DecisionFile } | { ok: false; error: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (!systemErrorCode(error)) throw error;
    return { ok: false, error: `--decisions ${path}: cannot read it (${oneLine(error)})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `--decisions ${path} is not JSON: ${oneLine(error)}` };
  }
  const parsed = parseDecisionFile(value);
  // The message may quote the file (an unknown id): its line breaks must not break the one line.
  return parsed.ok ? parsed : { ok: false, error: `--decisions ${path}: ${oneLine(parsed.error)}` };
}
