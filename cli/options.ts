import { InvalidArgumentError, Option } from 'commander';
import { checkOrgName } from '../mock/auth/org.js';

/** A flag that also reads `OPSAPI_<NAME>` from the environment. */
export function flag(flags: string, description: string, envName: string): Option {
  return new Option(flags, description).env(`OPSAPI_${envName}`);
}

/** Parses a non-negative integer flag. */
export function integer(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected an integer from ${min} to ${max}`);
    return n;
  };
}

/** Wraps a `{ok, value|error}` parser into a commander argument parser. */
export function parsed<T>(parse: (text: string) => { ok: true; value: T } | { ok: false; error: string }) {
  return (text: string): T => {
    const result = parse(text);
    if (!result.ok) throw new InvalidArgumentError(result.error);
    return result.value;
  };
}

/** Parses an organisation code with the mock's own rule (mock/auth/org.ts): a token the CLI mints is one the mock accepts. */
export const orgName = parsed(checkOrgName);
