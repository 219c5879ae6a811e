import { authChecks } from '../checks/auth.js';
import { catalogChecks } from '../checks/catalog.js';
import { filterChecks } from '../checks/filters.js';
import { isolationChecks } from '../checks/isolation.js';
import { listChecks } from '../checks/lists.js';
import { permissionChecks } from '../checks/permissions.js';
import { problemChecks } from '../checks/problems.js';
import { rateLimitChecks } from '../checks/rate-limit.js';
import { schemaChecks } from '../checks/schema.js';
import { webhookChecks } from '../checks/webhooks.js';
import { writeChecks } from '../checks/writes.js';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { checkFacts } from '../contract/check-facts.js';
import { contract } from '../contract/contract.js';
import type { CheckDef } from '../context.js';
import { levelOfFacts } from '../contract/facts.js';
import type { Level } from '../types.js';
import { FAMILIES } from '../types.js';

/**
 * Every check of the runner, in report order (families as in FAMILIES). Derived from the contract at each call; the
 * level of each check is derived from the provenance of the facts it rests on (`contract/check-facts.ts`), in
 * `document` (the contract by default: a test passes a copy with one fact relabelled).
 */
export function allChecks(document: OpenAPIObject = contract().document): CheckDef[] {
  const checks = [
    ...authChecks(),
    ...permissionChecks(),
    ...problemChecks(),
    ...listChecks(),
    ...filterChecks(),
    ...catalogChecks(),
    ...writeChecks(),
    ...webhookChecks(),
    ...rateLimitChecks(),
    ...isolationChecks(),
    ...schemaChecks(),
  ];
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
    seen.add(check.id);
  }
  const order = new Map(FAMILIES.map((f, i) => [f.id, i]));
  const facts = checkFacts(document);
  for (const check of checks) check.level = levelOf(document, facts, check.id);
  return checks.sort((a, b) => (order.get(a.family) ?? 0) - (order.get(b.family) ?? 0));
}

/** The level of a check from the facts it rests on; a check without an entry in the table is a programming error. */
function levelOf(document: OpenAPIObject, facts: ReturnType<typeof checkFacts>, id: string): Level {
  const rests = facts[id];
  if (!rests) throw new Error(`check ${id} names no fact of the contract (conformance/contract/check-facts.ts)`);
  return levelOfFacts(document, rests);
}
