import { withQuery, type Exchange, type HttpClient, type RequestSpec } from './client.js';
import { sharedWork } from './shared-work.js';

/** What makes two reads the same request: method, path with query, body, credential and extra headers. */
function keyOf(spec: RequestSpec): string {
  return JSON.stringify([
    spec.method,
    withQuery(spec.path, spec.query),
    spec.raw ?? (spec.json === undefined ? null : JSON.stringify(spec.json)),
    spec.auth ?? 'main',
    spec.headers ?? {},
  ]);
}

/**
 * Reads shared by the checks of a run. Checks of the main phase send many identical list requests (the same filter
 * leaf for `Equals`, `&&`/`||`, parentheses and precedence; the same `sortBy` for the order and collation checks;
 * the same out-of-bounds `pageSize` for the bounds checks): the main phase runs after the writes settled and changes
 * no list, so the first answer serves them all and each costs the tenant's rate limit once (inferred). The exchange is
 * recorded once, under the check that sent it. A read that got no answer (transport error, or rate limited past the
 * retries) is not kept: the next check sends it again.
 */
export function sharedReads(client: HttpClient): (check: string, spec: RequestSpec) => Promise<Exchange> {
  const reads = sharedWork(true);
  return (check, spec) => reads(keyOf(spec), () => client.send(check, spec));
}
