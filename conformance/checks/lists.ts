import type { CheckDef } from '../context.js';
import { pagingChecks } from './lists-paging.js';
import { sortChecks } from './lists-sort.js';
import { fieldSupportChecks } from './lists-fields.js';

export function listChecks(): CheckDef[] {
  return [...pagingChecks(), ...sortChecks(), ...fieldSupportChecks()];
}
