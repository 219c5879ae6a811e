/**
 * Organisation codes (the `org` claim that selects a tenant): letters, digits, `.`, `_`, `-`, starting with a letter
 * or digit, 1 to 64 characters (inferred: the reference shows `orgCode` as a string and gives no rule). One rule for
 * the mock's token check, its admin API and the CLI, so the CLI never mints a token the mock then refuses.
 */
export const ORG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The rule in words, for error messages. */
const ORG_RULE = '1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit';

/** Whether a value is a valid organisation code. */
export function isOrgName(value: unknown): value is string {
  return typeof value === 'string' && ORG_PATTERN.test(value);
}

/** Checks an organisation code: the code itself, or why it is refused. */
export function checkOrgName(value: string): { ok: true; value: string } | { ok: false; error: string } {
  if (isOrgName(value)) return { ok: true, value };
  return { ok: false, error: `an org is ${ORG_RULE}` };
}
