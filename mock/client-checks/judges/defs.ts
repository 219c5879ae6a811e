import { CLIENT_CHECKS, type ClientCheckDef } from '../checks.js';

const BY_ID = new Map(CLIENT_CHECKS.map((c) => [c.id, c]));

/** A check of the table by its id (a programming error when there is none). */
export function checkDef(id: string): ClientCheckDef {
  const def = BY_ID.get(id);
  if (!def) throw new Error(`no client check ${id}`);
  return def;
}
