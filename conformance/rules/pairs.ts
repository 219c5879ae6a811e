import { codeStatusId } from '../../spec/decisions/index.js';
import { catalogEntry, isErrorCode } from '../../spec/errors/index.js';
import { operation } from '../../spec/operations/index.js';
import type { Exchange } from '../wire/client.js';
import { problemOf } from '../contract/bodies.js';
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
 * Errors / Status and code pairs: a coded error is sent with the status of its code. For the pairs the reference
 * shows this is a MUST; for every other code the reference gives no status ("Status codes of all other error codes:
 * not shown"), so the MUST is only that an error the client caused (a code of the catalog) comes with a 4xx, and the
 * exact status is the contract's inference (a SHOULD that `opsapi learn` can settle). One rule for every code, in
 * the runner and the proxy alike. Codes the catalog does not list are information, never judged here.
 */
function mustRule(): ExchangeRule {
  return {
    id: 'errors.status-code-pair',
    title: 'A coded error is sent with the status the reference gives its code, and with a 4xx where it gives none',
    family: 'errors',
    clause: 'Errors / Status and code pairs shown ("Status codes of all other error codes: not shown")',
    level: 'MUST',
    applies: (ex) => codeOf(ex) !== undefined,
    judge(ex) {
      const f = new Findings();
      const code = codeOf(ex) as string;
      if (documentedPair(code)) {
        const status = catalogEntry(code)?.status as number;
        f.check(
          ex.status === status,
          `${where(ex)}: ${code} is sent with ${status} by the reference`,
          `${status} ${code}`,
          `${ex.status} ${code}`,
        );
      } else
        f.check(
          ex.status >= 400 && ex.status < 500,
          `${where(ex)}: ${code} is sent with a status outside 4xx`,
          `a 4xx with ${code}`,
          `${ex.status} ${code}`,
        );
      return f.list;
    },
  };
}

/** The exact status of a code the reference gives none for: the contract's (or the observed deployment's). */
function inferredRule(): ExchangeRule {
  return {
    id: 'errors.status-code-pair.inferred',
    title: 'A coded error is sent with the status the contract infers for its code',
    family: 'errors',
    clause: 'Errors / Status and code pairs (other codes: not shown)',
    level: 'SHOULD',
    applies(ex) {
      const code = codeOf(ex);
      return code !== undefined && !documentedPair(code);
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

export const PAIR_RULES: ExchangeRule[] = [mustRule(), inferredRule()];
