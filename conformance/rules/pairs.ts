import { codeStatusId } from '../../spec/decisions/index.js';
import { catalogEntry, isErrorCode } from '../../spec/errors/index.js';
import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../client.js';
import { problemOf } from '../bodies.js';
import { Findings, where, type ExchangeRule } from './types.js';

/** The catalog code of an error answer of a contract operation, or undefined. */
function codeOf(ex: Exchange): string | undefined {
  if (ex.status < 400 || ex.operationId === undefined) return undefined;
  const code = problemOf(ex)?.code;
  return typeof code === 'string' && isErrorCode(code) ? code : undefined;
}

/** Whether the status of a code is one the reference gives (Errors / Status and code pairs shown). */
function documentedPair(code: string): boolean {
  return catalogEntry(code)?.statusProvenance === 'documented';
}

/**
 * Errors / Status and code pairs: a coded error is sent with the status of its code. For the five pairs the
 * reference shows this is a MUST; for every other code the status is the contract's inference (a SHOULD that
 * `opsapi learn` can settle). Codes the catalog does not list are information, never judged here.
 */
function pairRule(documented: boolean): ExchangeRule {
  return {
    id: documented ? 'errors.status-code-pair' : 'errors.status-code-pair.inferred',
    title: documented
      ? 'A coded error is sent with the status the reference gives its code'
      : 'A coded error is sent with the status the contract infers for its code',
    family: 'errors',
    clause: documented
      ? 'Errors / Status and code pairs shown'
      : 'Errors / Status and code pairs (other codes: not shown)',
    level: documented ? 'MUST' : 'SHOULD',
    applies(ex) {
      const code = codeOf(ex);
      return code !== undefined && documentedPair(code) === documented;
    },
    judge(ex, env) {
      const f = new Findings();
      const code = codeOf(ex) as string;
      const op = operation(ex.operationId as string);
      const observed = env.decisions?.get(codeStatusId(code));
      const declared = op.errors.filter((e) => e.codes.includes(code as never)).map((e) => e.status);
      const expected =
        typeof observed === 'number'
          ? [observed]
          : declared.length > 0
            ? declared
            : [catalogEntry(code)?.status as number];
      f.check(
        expected.includes(ex.status),
        `${where(ex)}: ${code} is sent with ${expected.join(' or ')} by the contract`,
        `${expected.join(' or ')} ${code}`,
        `${ex.status} ${code}`,
      );
      return f.list;
    },
  };
}

export const PAIR_RULES: ExchangeRule[] = [pairRule(true), pairRule(false)];
