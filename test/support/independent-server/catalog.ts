import { ERROR_CODE_SET } from './error-codes.js';

/**
 * HTTP status of every code this server raises. The first five pairs are documented ("Errors / Status and code
 * pairs shown"); the reference gives no status for the others, so they are choices of this server.
 */
export const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  'COMMON.QUERY.FILTER_PARSING_FAILED': 400,
  'COMMON.AUTH.MISSING_PERMISSIONS': 403,
  'COMMON.ENTITY.NOT_FOUND': 404,
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': 422,
  'COMMON.RATE_LIMIT.EXCEEDED': 429,
  // Not shown in the reference: this server's choices.
  'COMMON.VALIDATION.ERROR': 422,
  'COMMON.QUANTITY.UNIT_NOT_CONFIGURED': 422,
  'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 422,
  'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL': 422,
  'ITEMS.FAMILY.ALREADY_DELETED': 410,
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE': 409,
  'COMMON.TENANT.PLAN_LIMIT_EXCEEDED': 403,
  'COMMON.FILE.SIZE_EXCEEDS_LIMIT': 413,
  // Only reachable through the faults 'forbidden-wrong-code' and 'auth-401-with-code'.
  'COMMON.AUTH.FORBIDDEN': 403,
  'COMMON.AUTH.UNAUTHORIZED': 401,
};

/** A short title per code raised here; the catalog endpoint derives titles of the other codes from their names. */
const TITLES: Readonly<Record<string, string>> = {
  'COMMON.QUERY.FILTER_PARSING_FAILED': 'The filter expression is not understood',
  'COMMON.AUTH.MISSING_PERMISSIONS': 'A permission is missing',
  'COMMON.ENTITY.NOT_FOUND': 'Nothing exists at this address',
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_CANCELLED_LINE': 'The purchase order line is cancelled',
  'PLANNING.PURCHASE_ORDER.CANNOT_MODIFY_RECEIVED_LINE': 'The purchase order line is already received',
  'COMMON.RATE_LIMIT.EXCEEDED': 'Too many requests for this organisation',
  'COMMON.VALIDATION.ERROR': 'The request is not valid',
  'COMMON.QUANTITY.UNIT_NOT_CONFIGURED': 'The unit of measure is not set up for this item',
  'NOTIFICATIONS.SUBSCRIPTION.EVENT_NOT_FOUND': 'No such event in this environment',
  'NOTIFICATIONS.WEBHOOK.INVALID_ENDPOINT_URL': 'The receiving address is not usable',
  'ITEMS.FAMILY.ALREADY_DELETED': 'The family was removed earlier',
  'COMMON.TENANT.PLAN_LIMIT_EXCEEDED': 'The plan of the organisation allows no more',
  'COMMON.FILE.SIZE_EXCEEDS_LIMIT': 'The request body is too large',
};

/** Lower-case words of an upper snake case name: `CANNOT_MODIFY_CANCELLED_LINE` → `cannot modify cancelled line`. */
function words(name: string): string {
  return name.toLowerCase().split('_').filter(Boolean).join(' ');
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The title used in problem bodies and catalog entries. */
export function titleOf(code: string): string {
  const known = TITLES[code];
  if (known) return known;
  const parts = code.split('.');
  const suffix = parts.pop() ?? code;
  const subject = parts.length > 1 ? words(parts[parts.length - 1] ?? '') : words(parts[0] ?? '');
  return `${capitalise(subject)}: ${words(suffix)}`;
}

interface CatalogParameter {
  key: string;
  description: string;
}

interface CatalogEntry {
  code: string;
  title: string;
  description: string;
  parameters: CatalogParameter[];
}

/** The parameters a problem of the code may carry (Resources / Error catalog entry: `parameters[]`). */
function parametersOf(code: string): CatalogParameter[] {
  if (code === 'COMMON.ENTITY.NOT_FOUND')
    return [
      { key: 'entity', description: 'the kind of record that was looked for' },
      { key: 'id', description: 'the identifier or reference given in the request' },
    ];
  if (code === 'COMMON.AUTH.MISSING_PERMISSIONS')
    return [{ key: 'permission', description: 'the name of the permission the caller would need' }];
  if (code === 'COMMON.QUANTITY.UNIT_NOT_CONFIGURED')
    return [{ key: 'unitOfMeasureId', description: 'the unit that the item does not allow' }];
  if (code === 'COMMON.QUERY.FILTER_PARSING_FAILED')
    return [{ key: 'filterBy', description: 'the expression that was refused' }];
  return [];
}

/** A catalog entry written for this server (GET /v1/errors/{errorCode}), or undefined outside the catalog. */
export function catalogEntry(code: string): CatalogEntry | undefined {
  if (!ERROR_CODE_SET.has(code)) return undefined;
  const [domain = '', ...rest] = code.split('.');
  const suffix = rest.pop() ?? '';
  const subject = rest.map(words).join(' ');
  return {
    code,
    title: titleOf(code),
    description: `Raised in the ${words(domain)} area when the ${subject || 'request'} hits this condition: ${words(suffix)}.`,
    parameters: parametersOf(code),
  };
}

/** The made-up entry served for an unknown code under the fault 'unknown-error-code-200'. */
export function inventedEntry(code: string): CatalogEntry {
  return { code, title: 'Unlisted condition', description: 'A condition without a catalog entry.', parameters: [] };
}
