import { operation } from '../../spec/operations/index.js';
import type { ResponseSample } from '../../spec/validate.js';
import type { Exchange } from '../wire/client.js';
import type { Level } from '../types.js';
import { Findings, type ExchangeRule, type RuleEnv } from './types.js';

/**
 * The level of the strictest schema rule that judges a response: MUST when the reference states part of it, so the
 * MUST rule judges that documented core (spec/validate.ts `responseCore`) while the SHOULD rule judges the whole
 * contract; SHOULD when the reference states nothing of it.
 * - An error (400 and above): MUST. "Error responses follow the Errors part" (Endpoints), whatever the operation.
 * - A 2xx: MUST when the operation's success status or success body is documented. Where the reference gives a body
 *   but no status ("Success status code: not shown"), any 2xx is judged by that body.
 * - Any other status: SHOULD (the contract declares none).
 */
function responseLevel(ex: Exchange): Level {
  const op = operation(ex.operationId as string);
  if (ex.status >= 400) return 'MUST';
  if (ex.status < 200 || ex.status > 299) return 'SHOULD';
  const body = op.success.body ?? op.success;
  return op.success.provenance === 'documented' || body.provenance === 'documented' ? 'MUST' : 'SHOULD';
}

/** The body of an exchange as the validator takes it: parsed JSON, the text, or undefined when empty. */
export function bodyOf(ex: Exchange): unknown {
  return ex.text === '' ? undefined : (ex.json ?? ex.text);
}

function sampleOf(ex: Exchange): ResponseSample {
  return { status: ex.status, contentType: ex.headers['content-type'], body: bodyOf(ex) };
}

function finding(ex: Exchange, errors: string[], expected: string): Findings {
  const f = new Findings();
  f.check(
    false,
    `${ex.method} ${ex.target} (${ex.operationId}) -> ${ex.status}: ${errors.slice(0, 4).join('; ')}`,
    expected,
    errors.join('; '),
  );
  return f;
}

/**
 * MUST: the documented core of the response. Only what the reference states: the documented fields (required and
 * typed), no body where it says "no content", a problem for every error, a documented status where it gives one.
 * Fields and keywords the contract infers, other members, and which status is answered where the reference gives
 * none are never judged here.
 */
const documentedRule: ExchangeRule = {
  id: 'schema.responses-valid',
  title: 'Every response matches what the reference documents of it (documented fields, no body, problem bodies)',
  family: 'schema',
  clause:
    'The contract (spec/openapi.json): the documented core of each response (x-provenance and x-body-provenance documented)',
  level: 'MUST',
  applies: (ex) => ex.operationId !== undefined && responseLevel(ex) === 'MUST',
  judge(ex, env: RuleEnv) {
    const result = env.validator.validateResponseCore(ex.operationId as string, sampleOf(ex));
    if (!result || result.ok) return [];
    return finding(ex, result.errors, 'what the reference documents of this response').list;
  },
};

/**
 * SHOULD: the whole contract, inferred fields, keywords and statuses included. A status the contract does not
 * declare is a finding here, never of the MUST rule.
 */
const contractRule: ExchangeRule = {
  id: 'schema.responses-valid.inferred',
  title: 'Every response matches the whole contract (inferred fields, keywords and statuses included)',
  family: 'schema',
  clause: 'The contract (spec/openapi.json): each response as declared, inferred parts included',
  level: 'SHOULD',
  applies: (ex) => ex.operationId !== undefined,
  judge(ex, env: RuleEnv) {
    const result = env.validator.validateResponse(ex.operationId as string, sampleOf(ex));
    if (result.ok) return [];
    return finding(ex, result.errors, 'a response the contract declares').list;
  },
};

/** Documented parts are validated strictly; members the contract does not name are information (Resources: "not shown"). */
export const SCHEMA_RULES: ExchangeRule[] = [documentedRule, contractRule];
