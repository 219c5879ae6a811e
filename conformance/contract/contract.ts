import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { sharedContract } from '../../spec/shared-contract.js';
import { ALL_PERMISSIONS, OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import type { ListField } from '../../spec/lists/fields.js';
import { pathTemplateRegex } from '../../spec/path-template.js';
import type { ContractValidator } from '../../spec/validate.js';

/** The contract document and its validator, built once per process (spec/shared-contract.ts). */
export function contract(): { document: OpenAPIObject; validator: ContractValidator } {
  return sharedContract();
}

/** The operations of the contract (every check iterates these, so a new operation is covered without editing conformance/). */
export function operations(): readonly OperationDef[] {
  return OPERATIONS;
}

/** List and search operations. */
export function listOperations(): OperationDef[] {
  return OPERATIONS.filter((op) => op.list !== undefined);
}

/** `METHOD /path` of an operation. */
export function label(op: OperationDef): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

interface Matcher {
  op: OperationDef;
  method: string;
  regex: RegExp;
  params: number;
}

const matchers: Matcher[] = OPERATIONS.map((op) => ({
  op,
  method: op.method.toUpperCase(),
  regex: pathTemplateRegex(op.path),
  params: op.pathParams.length,
})).sort((a, b) => a.params - b.params);

/** The operation a request addresses (literal paths win over templated ones), or undefined. */
export function matchOperation(method: string, path: string): string | undefined {
  const m = method.toUpperCase();
  for (const matcher of matchers) if (matcher.method === m && matcher.regex.test(path)) return matcher.op.operationId;
  return undefined;
}

/** Fills a path template. Values are percent-encoded. */
export function fillPath(op: OperationDef, values: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? 'conform-probe'));
}

/** A path for requests whose path values do not matter (auth and permission checks). */
export function probePath(op: OperationDef): string {
  return fillPath(op, {});
}

/** Filterable fields of a list operation (none when the list takes no filter). */
export function filterableFields(op: OperationDef): ListField[] {
  if (!op.list?.filterAndSort) return [];
  return op.list.fields.filter((f) => f.filterable);
}

/** The permissions the contract's operations require. */
export function contractPermissions(): string[] {
  return [...ALL_PERMISSIONS];
}

/**
 * Splits operations by the provenance of the fact a check is about: documented ones give the MUST check,
 * inferred ones its SHOULD twin (`<id>.inferred`).
 */
export function byProvenance(
  ops: readonly OperationDef[],
  fact: (op: OperationDef) => { provenance: 'documented' | 'inferred' } = (op) => op,
): {
  documented: OperationDef[];
  inferred: OperationDef[];
} {
  return {
    documented: ops.filter((op) => fact(op).provenance === 'documented'),
    inferred: ops.filter((op) => fact(op).provenance === 'inferred'),
  };
}
