import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { ContractValidator } from '../validate.js';

/** The committed contract document. */
export function committedDocument(): OpenAPIObject {
  return JSON.parse(readFileSync(fileURLToPath(new URL('../openapi.json', import.meta.url)), 'utf8')) as OpenAPIObject;
}

let committed: ContractValidator | undefined;

/** One validator of the committed document for the tests of a worker (it compiles each schema once, on first use). */
export function committedValidator(): ContractValidator {
  committed ??= new ContractValidator(committedDocument());
  return committed;
}

/** `METHOD /path` of every operation of a document. */
export function operationKeys(doc: OpenAPIObject): string[] {
  const keys: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      if ((item as Record<string, unknown>)[method]) keys.push(`${method.toUpperCase()} ${path}`);
    }
  }
  return keys.sort();
}

/** Every operation object with its key. */
export function operations(doc: OpenAPIObject): { key: string; op: Record<string, any> }[] {
  const out: { key: string; op: Record<string, any> }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'delete', 'patch']) {
      const op = (item as Record<string, any>)[method];
      if (op) out.push({ key: `${method.toUpperCase()} ${path}`, op });
    }
  }
  return out;
}
