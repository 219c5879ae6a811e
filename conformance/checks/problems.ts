import type { Exchange } from '../wire/client.js';
import { filterableFields, listOperations, operations, probePath } from '../contract/contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import { listSpec } from '../helpers.js';
import { PAIR_RULES } from '../rules/pairs.js';
import { PROBLEM_RULES } from '../rules/problems.js';
import { ruleCheck } from './rule-checks.js';

/**
 * A few requests that must fail (401, 403, 404, 400), so the problem checks have errors to judge even when run
 * alone; then every error answer of a contract operation the run recorded.
 */
async function errorExchanges(c: CheckContext): Promise<Exchange[]> {
  await c.run.memo('errors:samples', async () => {
    const send = (spec: Parameters<typeof c.run.client.send>[1]) =>
      c.run.client.send('shared', spec).catch(() => undefined);
    const jobs: Promise<unknown>[] = [send({ method: 'GET', path: '/v1/admin/tenants/self', auth: 'none' })];
    if (c.run.credentials.main) {
      jobs.push(send({ method: 'GET', path: '/v1/errors/CONFORM.NO_SUCH.CODE' }));
      const list = listOperations().find((op) => filterableFields(op).length > 0 && op.pathParams.length === 0);
      if (list) jobs.push(send(listSpec(list, list.path, { filterBy: 'conformNoSuchColumn[Equals]x' })));
    }
    const guarded = operations().find((op) => op.permission.name !== null && op.method === 'get');
    const limited = guarded
      ? ((await c.run.credentials.without?.(guarded.permission.name as string)) ?? c.run.credentials.limited)
      : undefined;
    if (guarded && limited) jobs.push(send({ method: 'GET', path: probePath(guarded), auth: { bearer: limited } }));
    await Promise.all(jobs);
  });
  return c.run.client.exchanges.filter((ex) => ex.status >= 400 && ex.operationId !== undefined);
}

/** The problem rules and the status/code pair rules, applied to every error answer of the run. */
export function problemChecks(): CheckDef[] {
  return [...PROBLEM_RULES, ...PAIR_RULES].map((rule) => ruleCheck(rule, errorExchanges));
}
