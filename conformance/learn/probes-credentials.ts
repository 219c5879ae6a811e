import { randomBytes } from 'node:crypto';
import { OPERATIONS, type OperationDef } from '../../spec/operations/index.js';
import { probePath } from '../contract/contract.js';
import { isSuccess, listSpec, nonce, problemOf } from '../helpers.js';
import { plainLists, type Probe, type ProbeContext } from './probe.js';

/**
 * What credentials a deployment takes where the reference leaves it open (Authentication, points 1-4): a bearer token
 * with another X-Api-Key or the same token repeated in it, an API key alone, the plain 401's address, and the
 * permission each operation whose permission the contract infers is refused without.
 */

const KEY_LIST = () => plainLists().find((o) => o.path === '/v1/items/skus') ?? (plainLists()[0] as OperationDef);

/** A list request with exactly these credential headers. */
function listWith(p: ProbeContext, headers: Record<string, string>) {
  const op = KEY_LIST();
  return p.send({ ...listSpec(op, op.path, { pageSize: 1 }), auth: { headers } });
}

/** The bearer token of the run, or the reason a probe cannot go on without one. */
function bearer(p: ProbeContext, ids: string[]): string | undefined {
  const token = p.run.credentials.main;
  if (!token) for (const id of ids) p.seen.cannot(id, 'needs a bearer token (--token)');
  return token;
}

/** Both headers: another, unknown key (refused or ignored), and the token repeated in X-Api-Key (accepted or not). */
const withBearer: Probe = {
  name: 'credentials beside the bearer token',
  kind: 'read',
  points: () => ['other-api-key-with-bearer', 'key-repeating-bearer', 'problem-401-type'],
  async run(p) {
    const token = bearer(p, ['other-api-key-with-bearer', 'key-repeating-bearer']);
    // The plain 401 (Authentication, point 3), whose address is scanned.
    await p.send({ ...listSpec(KEY_LIST(), KEY_LIST().path, { pageSize: 1 }), auth: 'none' });
    if (!token) return;
    const key = `opsapi-learn-${randomBytes(12).toString('hex')}`;
    p.run.redactor.add(key);
    const other = await listWith(p, { authorization: `Bearer ${token}`, 'x-api-key': key });
    if (other.status === 401) p.seen.record('other-api-key-with-bearer', 'refused', other);
    else if (isSuccess(other)) p.seen.record('other-api-key-with-bearer', 'ignored', other);
    else p.seen.cannot('other-api-key-with-bearer', `the request answered ${other.status}, neither 401 nor a success`);
    const alone = await listWith(p, { authorization: `Bearer ${token}` });
    const twice = await listWith(p, { authorization: `Bearer ${token}`, 'x-api-key': token });
    if (twice.status === 401 && alone.status !== 401) p.seen.record('key-repeating-bearer', 'refused', twice);
    else if (twice.status === alone.status) p.seen.record('key-repeating-bearer', 'accepted', twice);
    else p.seen.cannot('key-repeating-bearer', `${twice.status} with the token repeated, ${alone.status} without`);
  },
};

/** The run's API key (`--api-key`), or one created for the probe when writes are allowed (it cannot be deleted). */
async function apiKey(p: ProbeContext): Promise<string | undefined> {
  if (p.run.credentials.apiKey) return p.run.credentials.apiKey;
  if (!p.run.options.allowWrites) return undefined;
  const created = await p.send({
    method: 'POST',
    path: '/v1/access/apiKeys',
    json: { name: `opsapi learn ${nonce()}` },
  });
  const key = (created.json as { key?: unknown } | undefined)?.key;
  if (typeof key !== 'string') return undefined;
  p.run.redactor.add(key);
  p.run.notes.push('An API key named "opsapi learn …" was created (the contract has no operation to delete it).');
  return key;
}

/** X-Api-Key without a bearer token on a list request (Authentication, point 2: the key is "also" sent). */
const keyAlone: Probe = {
  name: 'API key alone',
  kind: 'read',
  points: () => ['api-key-alone'],
  async run(p) {
    const key = await apiKey(p);
    if (!key) return p.seen.cannot('api-key-alone', 'needs an API key: --api-key, or --allow-writes to create one');
    const ex = await listWith(p, { 'x-api-key': key });
    if (ex.status === 401) p.seen.record('api-key-alone', 'refused', ex);
    // A 403 is an authenticated caller lacking a permission: the key was accepted.
    else if (isSuccess(ex) || ex.status === 403) p.seen.record('api-key-alone', 'accepted', ex);
    else p.seen.cannot('api-key-alone', `the request answered ${ex.status}`);
  },
};

/** The permission a 403 names: its `parameters.permission`, else a `Domain.Resource.Access` name in its detail. */
function namedPermission(body: ReturnType<typeof problemOf>): string | undefined {
  const parameters = body?.parameters as { permission?: unknown } | undefined;
  if (typeof parameters?.permission === 'string') return parameters.permission;
  return typeof body?.detail === 'string'
    ? body.detail.match(/\b[A-Z][A-Za-z]*(\.[A-Z][A-Za-z]*){1,4}\b/)?.[0]
    : undefined;
}

/**
 * Each operation whose permission the contract infers, called (at an address that names nothing) with a token that
 * lacks the contract's permission (a mock mints one) or the `--limited-token`: the permission its 403 names.
 */
const permissions: Probe = {
  name: 'permissions',
  kind: 'read',
  points: () =>
    OPERATIONS.filter((o) => o.permission.provenance === 'inferred').map((o) => `permission:${o.operationId}`),
  async run(p) {
    await Promise.all(
      OPERATIONS.filter((o) => o.permission.provenance === 'inferred').map(async (op) => {
        const id = `permission:${op.operationId}`;
        const contract = op.permission.name;
        const token = (contract ? await p.run.credentials.without?.(contract) : undefined) ?? p.run.credentials.limited;
        if (!token) return p.seen.cannot(id, 'needs a token lacking permissions (--limited-token)');
        const ex = await p.send({
          method: op.method.toUpperCase() as 'GET',
          path: probePath(op),
          auth: { bearer: token },
          ...(op.requestBody ? { json: {} } : {}),
        });
        const named = ex.status === 403 ? namedPermission(problemOf(ex)) : undefined;
        if (named) return p.seen.record(id, named, ex);
        // Let through: consistent with no permission only where the contract says so (the token may hold others).
        if (ex.status !== 401 && ex.status !== 403 && contract === null) return p.seen.record(id, 'none', ex);
        p.seen.cannot(id, `answered ${ex.status} to a token lacking ${contract ?? 'permissions'}: no permission named`);
      }),
    );
  },
};

export const CREDENTIAL_PROBES: readonly Probe[] = [withBearer, keyAlone, permissions];
