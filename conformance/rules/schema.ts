import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import type { Level } from '../types.js';
import { Findings, type ExchangeRule } from './types.js';

/** Plain problems of errors no operation can list (unknown route, wrong method, oversized or non-JSON body): inferred. */
const GENERIC = new Set([404, 405, 413, 415]);

/** The level of the response an exchange got: the provenance of the declared response, else of the operation. */
export function responseLevel(ex: Exchange): Level {
  const op = operation(ex.operationId as string);
  if (op.success.status === ex.status) return op.success.provenance === 'documented' ? 'MUST' : 'SHOULD';
  const error = op.errors.find((e) => e.status === ex.status);
  if (error) return error.provenance === 'documented' ? 'MUST' : 'SHOULD';
  if (GENERIC.has(ex.status)) return 'SHOULD';
  return op.provenance === 'documented' ? 'MUST' : 'SHOULD';
}

/** The body of an exchange as the validator takes it: parsed JSON, the text, or undefined when empty. */
export function bodyOf(ex: Exchange): unknown {
  return ex.text === '' ? undefined : (ex.json ?? ex.text);
}

function schemaRule(level: Level): ExchangeRule {
  const must = level === 'MUST';
  return {
    id: must ? 'schema.responses-valid' : 'schema.responses-valid.inferred',
    title: `Every response matches the contract (${must ? 'documented responses' : 'responses the contract infers'})`,
    family: 'schema',
    clause: `The contract (spec/openapi.json): responses marked x-provenance ${must ? 'documented' : 'inferred'}`,
    level,
    applies: (ex) => ex.operationId !== undefined && responseLevel(ex) === level,
    judge(ex, env) {
      const f = new Findings();
      const result = env.validator.validateResponse(ex.operationId as string, {
        status: ex.status,
        contentType: ex.headers['content-type'],
        body: bodyOf(ex),
      });
      if (!result.ok)
        f.check(
          false,
          `${ex.method} ${ex.target} (${ex.operationId}) -> ${ex.status}: ${result.errors.slice(0, 4).join('; ')}`,
          'a response the contract declares',
          result.errors.join('; '),
        );
      return f.list;
    },
  };
}

/** Documented fields are validated strictly; members the contract does not name are information (Resources: "not shown"). */
export const SCHEMA_RULES: ExchangeRule[] = [schemaRule('MUST'), schemaRule('SHOULD')];
