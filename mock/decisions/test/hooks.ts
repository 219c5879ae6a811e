import type { FastifyInstance } from 'fastify';

/**
 * The names of the hooks of one kind on a Fastify instance. Fastify keeps them under a symbol it does not export
 * (`fastify.hooks`, lib/symbols.js of Fastify 5); a test reads it to prove a hook absent, which no request can.
 */
export function hookNames(app: FastifyInstance, kind: 'onRequest' | 'onSend'): string[] {
  const symbols: symbol[] = [];
  for (let o: object | null = app; o; o = Object.getPrototypeOf(o)) symbols.push(...Object.getOwnPropertySymbols(o));
  const hooks = symbols.find((s) => s.description === 'fastify.hooks');
  if (!hooks) throw new Error('this Fastify keeps its hooks elsewhere: update mock/decisions/test/hooks.ts');
  const all = (app as unknown as Record<symbol, Record<string, ((...args: unknown[]) => unknown)[]>>)[hooks];
  return (all?.[kind] ?? []).map((hook) => hook.name);
}
