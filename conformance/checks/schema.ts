import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { contract } from '../contract.js';
import type { CheckContext, CheckDef } from '../context.js';
import type { Level } from '../types.js';
import { UnknownFieldLines } from './unknown-info.js';

/** Plain problems of errors no operation can list (unknown route, wrong method, oversized or non-JSON body): inferred. */
const GENERIC = new Set([404, 405, 413, 415]);

/** The level of the response an exchange got: the provenance of the declared response, else of the operation. */
function levelOf(ex: Exchange): Level {
  const op = operation(ex.operationId as string);
  if (op.success.status === ex.status) return op.success.provenance === 'documented' ? 'MUST' : 'SHOULD';
  const error = op.errors.find((e) => e.status === ex.status);
  if (error) return error.provenance === 'documented' ? 'MUST' : 'SHOULD';
  if (GENERIC.has(ex.status)) return 'SHOULD';
  return op.provenance === 'documented' ? 'MUST' : 'SHOULD';
}

function validate(c: CheckContext, level: Level): void {
  const { validator } = contract();
  // Documented fields are validated strictly; members the contract does not name are information (Resources: "not shown").
  const unknown = new UnknownFieldLines(validator);
  for (const ex of c.run.client.exchanges) {
    if (!ex.operationId || levelOf(ex) !== level) continue;
    c.exercised();
    const body = ex.text === '' ? undefined : (ex.json ?? ex.text);
    const result = validator.validateResponse(ex.operationId, {
      status: ex.status,
      contentType: ex.headers['content-type'],
      body,
    });
    if (!result.ok)
      c.fail(
        `${ex.method} ${ex.target} (${ex.operationId}) -> ${ex.status}: ${result.errors.slice(0, 4).join('; ')}`,
        ex,
        'a response the contract declares',
        result.errors.join('; '),
      );
    unknown.add(ex.operationId, ex.status, body);
  }
  // The context keeps the first lines and counts them all.
  for (const line of unknown.ordered()) c.inform(line);
}

export function schemaChecks(): CheckDef[] {
  return [
    {
      id: 'schema.responses-valid',
      title: 'Every response of the run matches the contract (documented responses)',
      family: 'schema',
      clause: 'The contract (spec/openapi.json): responses marked x-provenance documented',
      level: 'MUST',
      phase: 'aggregate',
      run: async (c) => validate(c, 'MUST'),
    },
    {
      id: 'schema.responses-valid.inferred',
      title: 'Every response of the run matches the contract (responses the contract infers)',
      family: 'schema',
      clause: 'The contract (spec/openapi.json): responses marked x-provenance inferred',
      level: 'SHOULD',
      phase: 'aggregate',
      run: async (c) => validate(c, 'SHOULD'),
    },
  ];
}
