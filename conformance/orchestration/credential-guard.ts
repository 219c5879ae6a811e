import { execFile } from 'node:child_process';
import { problemOf } from '../contract/bodies.js';
import type { Credential, CredentialGuardHook, Exchange, HttpClient, RequestSpec } from '../wire/client.js';
import type { ConformOptions, Credentials } from '../context.js';
import { CredentialRefusedError, UsageError } from '../errors.js';
import type { Redactor } from '../wire/redact.js';

/** A credential of the run, by the part it plays. */
type CredentialRole = 'main' | 'apiKey' | 'limited' | 'other' | 'rateLimit';

/** The check name of the reads that prove a credential (their own 401 is judged here, never renewed or re-proved). */
const PROOF = 'credentials';

/** Where a run's minted tokens come from, as the refusal names them. */
const MINTED = 'minted on the mock (POST /__mock/tokens)';

/**
 * The read that proves a bearer token: a code of the error catalog. "All endpoints need authentication" (Endpoints),
 * and any authenticated caller may read the catalog (its permission is not shown: the contract infers none), so a
 * token lacking permissions (`--limited-token`) still gets a 200, or at worst a 403 (a refusal of the permission,
 * Authentication, point 4); only a 401 refuses the token itself (point 3).
 */
const TOKEN_PROOF = { method: 'GET', path: '/v1/errors/COMMON.ENTITY.NOT_FOUND' } as const;

/**
 * The read that proves an API key: "an API key ... is also sent in an X-Api-Key header in list requests"
 * (Authentication, point 2), so a list read with both headers, as clients send it (the key alone without a token).
 */
const KEY_PROOF = { method: 'GET', path: '/v1/items/skus', query: { pageSize: 1 } } as const;

/** Runs a shell command that prints a token (its last line). */
export function tokenFromCommand(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('sh', ['-c', command], { timeout: 30_000, maxBuffer: 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(new UsageError(`--token-command failed: ${error.message.split('\n')[0] ?? ''}`));
      const token = stdout.trim().split('\n').pop()?.trim() ?? '';
      if (!token) return reject(new UsageError('--token-command printed no token'));
      resolve(token);
    });
  });
}

const bearer = (token: string | undefined) => (token ? { authorization: `Bearer ${token}` } : null);

/**
 * The run's credentials as the client sends them, and what a 401 means for them. Before the checks, one read proves
 * each credential the run holds (given or minted); a credential refused later (a token that expired during the run)
 * is renewed once through `--token-command` when there is one, and otherwise, or refused again, halts the run with
 * `CredentialRefusedError` (exit 2), never as failed checks. A 401 to a request that carried no credential of the
 * run unaltered (the auth checks send none, forged ones or their own headers on purpose) is the target's answer to
 * the check; so is a 401 to one request while the credential it carried is still accepted by the proof read.
 */
export class CredentialGuard implements CredentialGuardHook {
  refusal: CredentialRefusedError | undefined;
  private client: HttpClient | undefined;
  private renewing: Promise<boolean> | undefined;
  private readonly proving = new Map<string, Promise<string | undefined>>();

  constructor(
    readonly credentials: Credentials,
    private readonly options: Pick<ConformOptions, 'token' | 'tokenCommand' | 'limitedToken' | 'otherTenantToken'>,
    private readonly redactor: Redactor,
  ) {}

  /** The client that sends the proof reads (made after the guard: it sends through it). */
  attach(client: HttpClient): void {
    this.client = client;
  }

  /** The headers of a credential, or null when the run has none such. */
  headers(cred: Credential): Record<string, string> | null {
    const c = this.credentials;
    if (cred === 'none') return {};
    if (cred === 'main') return c.main ? bearer(c.main) : c.apiKey ? { 'x-api-key': c.apiKey } : null;
    if (cred === 'limited') return bearer(c.limited);
    if (cred === 'other') return bearer(c.other);
    if ('bearer' in cred) return bearer(cred.bearer);
    if ('apiKey' in cred) return { 'x-api-key': cred.apiKey };
    return cred.headers;
  }

  /** A credential as the refusal names it: its option, or how the run obtained it. */
  nameOf(role: CredentialRole): string {
    const o = this.options;
    if (role === 'main')
      return o.tokenCommand ? 'the token of --token-command' : o.token ? '--token' : `the token ${MINTED}`;
    if (role === 'apiKey') return '--api-key';
    if (role === 'limited') return o.limitedToken ? '--limited-token' : `the limited token ${MINTED}`;
    if (role === 'other') return o.otherTenantToken ? '--other-tenant-token' : `the other tenant's token ${MINTED}`;
    return `the rate-limit probe's token ${MINTED}`;
  }

  /** The credentials the run holds, in the order they are proved (the API key's read also sends the main token). */
  held(): CredentialRole[] {
    const c = this.credentials;
    const roles: CredentialRole[] = [];
    if (c.main) roles.push('main');
    if (c.apiKey) roles.push('apiKey');
    if (c.limited) roles.push('limited');
    if (c.other) roles.push('other');
    if (c.rateLimit) roles.push('rateLimit');
    return roles;
  }

  /**
   * Before the checks: proves every credential the run holds, the main one first (the API key's read carries it). A
   * token of `--token-command` the target refuses is renewed once, as during the run. Throws the first refusal.
   */
  async proveAll(): Promise<void> {
    const [first, ...rest] = this.held();
    if (!first) return;
    const refused = async (role: CredentialRole) => {
      let detail = await this.refusalOf(role);
      if (detail !== undefined && role === 'main' && (await this.renew(this.credentials.main)))
        detail = await this.refusalOf(role);
      return detail === undefined ? undefined : new CredentialRefusedError(this.nameOf(role), detail);
    };
    const main = await refused(first);
    if (main) throw main;
    const others = await Promise.all(rest.map(refused));
    const error = others.find((e) => e !== undefined);
    if (error) throw error;
  }

  /** A 401 met by a request of the run (the client asks): renewed, the check's answer, or the run halted. */
  async unauthorized(
    check: string,
    spec: RequestSpec,
    sent: Record<string, string>,
    retried: boolean,
  ): Promise<'retry' | 'answer'> {
    if (check === PROOF || this.refusal) return 'answer';
    const role = this.carried(spec);
    if (!role) return 'answer';
    const token = /^Bearer (.+)$/.exec(sent.authorization ?? '')?.[1];
    if (role === 'main' && token !== undefined && !retried && (await this.renew(token))) return 'retry';
    // The credential itself, or only this request? The proof read tells (a target may refuse one operation wrongly).
    const detail = await this.refusalOf(role);
    if (detail === undefined) return 'answer';
    const renewable = role === 'main' && this.options.token !== undefined && !this.options.tokenCommand;
    const renewed = role === 'main' && this.options.tokenCommand ? ', also after running --token-command again' : '';
    const hint = renewable ? '; --token-command renews a token that expires' : '';
    this.refusal ??= new CredentialRefusedError(
      this.nameOf(role),
      detail,
      `during the run${renewed} (${spec.method} ${spec.path} answered 401${hint})`,
    );
    throw this.refusal;
  }

  /**
   * The run's credential a request carries as the run holds it, or undefined: no credential, headers a check set
   * itself (a forged token, an unknown key, a token repeated in X-Api-Key), a key the run created, the admin API.
   */
  carried(spec: RequestSpec): CredentialRole | undefined {
    if (spec.path.startsWith('/__mock/')) return undefined;
    const own = Object.keys(spec.headers ?? {}).map((h) => h.toLowerCase());
    if (own.includes('authorization') || own.includes('x-api-key')) return undefined;
    const c = this.credentials;
    const auth = spec.auth ?? 'main';
    if (auth === 'main') return c.main ? 'main' : c.apiKey ? 'apiKey' : undefined;
    if (auth === 'limited' || auth === 'other') return auth;
    if (auth === 'none' || 'headers' in auth) return undefined;
    if ('apiKey' in auth) return auth.apiKey === c.apiKey ? 'apiKey' : undefined;
    const roles = ['main', 'limited', 'other', 'rateLimit'] as const;
    return roles.find((role) => c[role] !== undefined && c[role] === auth.bearer);
  }

  /**
   * Renews the main token through `--token-command` (one run of the command for requests refused together): true when
   * a token other than `refused` is now the run's (also when another request renewed it already).
   */
  private renew(refused: string | undefined): Promise<boolean> {
    const command = this.options.tokenCommand;
    if (!command) return Promise.resolve(false);
    if (this.credentials.main !== refused) return Promise.resolve(true);
    this.renewing ??= tokenFromCommand(command)
      .then((token) => {
        this.redactor.add(token);
        this.credentials.main = token;
        return token !== refused;
      })
      .catch(() => false)
      .finally(() => {
        this.renewing = undefined;
      });
    return this.renewing;
  }

  /** Sends the proof read of a credential: the refusal's detail on a 401, else undefined (one read at a time each). */
  private refusalOf(role: CredentialRole): Promise<string | undefined> {
    const key = `${role}\n${role === 'apiKey' ? this.credentials.apiKey : this.credentials[role]}`;
    let proving = this.proving.get(key);
    if (!proving) {
      proving = this.prove(role).finally(() => this.proving.delete(key));
      this.proving.set(key, proving);
    }
    return proving;
  }

  private async prove(role: CredentialRole): Promise<string | undefined> {
    const client = this.client;
    if (!client) throw new Error('CredentialGuard: no client attached');
    const c = this.credentials;
    const spec: RequestSpec =
      role === 'apiKey'
        ? {
            ...KEY_PROOF,
            auth: { headers: { ...(c.main ? bearer(c.main) : {}), 'x-api-key': c.apiKey ?? '' } },
          }
        : { ...TOKEN_PROOF, auth: role === 'main' ? 'main' : { bearer: c[role] ?? '' } };
    // Outside the request slots: a check holding a slot may be waiting on this read.
    const ex = await client.send(PROOF, spec, false).catch(() => undefined);
    return ex?.status === 401 ? this.detailOf(ex) : undefined;
  }

  /** The refusal's problem `detail`, or what stands in for it. */
  private detailOf(ex: Exchange): string {
    const detail = problemOf(ex)?.detail;
    const text = typeof detail === 'string' && detail.trim() ? detail.trim() : `401 ${ex.text.slice(0, 200)}`.trim();
    return this.redactor.text(text.replace(/\s*\n\s*/g, ' '));
  }
}
