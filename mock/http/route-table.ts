import { OPERATIONS } from '../../spec/operations/index.js';
import { pathTemplateRegex } from '../../spec/path-template.js';

interface Template {
  readonly regex: RegExp;
  readonly methods: string[];
}

/** Path templates of the contract, to tell an unknown path (404) from a known path with the wrong method (405). */
const TEMPLATES: Template[] = (() => {
  const byPath = new Map<string, string[]>();
  for (const op of OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method.toUpperCase()]);
  return [...byPath].map(([path, methods]) => ({
    regex: pathTemplateRegex(path),
    methods,
  }));
})();

/** The methods the contract allows on a path (empty: unknown path). Static paths win over templates. */
export function allowedMethods(path: string): string[] {
  const out = new Set<string>();
  for (const t of TEMPLATES) if (t.regex.test(path)) for (const m of t.methods) out.add(m);
  return [...out];
}
