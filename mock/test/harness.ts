import { expect } from 'vitest';
import { sharedContract } from '../../spec/shared-contract.js';
import { mintToken } from '../auth/tokens.js';
import { adminClaims, limitedClaims } from '../auth/presets.js';
import { buildMock, startMock, type Mock, type RunningMock } from '../server.js';
import type { MockOptions } from '../options.js';
import { INJECT_ORIGIN, overSocket, throughInject, type Send } from './transports.js';

// The validator every mock of this process uses: each schema compiled once (the answers are judged by the contract,
// which is one frozen document, whoever holds its validator).
const { validator } = sharedContract();

/** A response as the tests see it. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

/** Options of one call. */
export interface CallOptions {
  token?: string | null;
  apiKey?: string;
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string;
  headers?: Record<string, string>;
  /** operationId whose contract the response must satisfy; checked automatically when given. */
  op?: string;
}

/**
 * A mock answering through `app.inject()` (no socket), with tokens for a fresh tenant and a call helper: what
 * HTTP-shell tests need. The socket `Harness` offers the same and a URL.
 */
export interface InjectHarness {
  mock: Mock;
  /** The origin the mock sees requests come to (its `{base_url}`, e.g. in problem types). */
  origin: string;
  org: string;
  admin: string;
  limited: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  token(claims: Parameters<typeof mintToken>[1], expiresIn?: number): Promise<string>;
  close(): Promise<void>;
}

/** A running mock on a loopback port (for tests that need the wire, processes or receivers), as `InjectHarness`. */
export interface Harness extends InjectHarness {
  mock: RunningMock;
  url: string;
}

let orgCounter = 0;

/** A fresh org name, so tests sharing a server never see each other's data. */
export function freshOrg(prefix = 'test'): string {
  orgCounter += 1;
  return `${prefix}-${process.pid}-${orgCounter}`;
}

/** A fresh tenant of a harness and an admin token for it. */
export async function adminTenant(
  h: { token(claims: ReturnType<typeof adminClaims>): Promise<string> },
  prefix = 'adm',
): Promise<{ org: string; token: string }> {
  const org = freshOrg(prefix);
  return { org, token: await h.token(adminClaims(org)) };
}

/**
 * Starts a real mock on 127.0.0.1 (port 0) with rate limiting off unless asked, and mints an admin and a limited
 * token for a fresh tenant. Every response of a call with `op` is validated against the contract.
 */
export async function startHarness(overrides: Partial<MockOptions> = {}): Promise<Harness> {
  const mock = await startMock({ port: 0, rateLimit: null, ...overrides });
  return { ...(await harnessOver(mock, overSocket(mock.url), mock.url)), mock, url: mock.url };
}

/** As `startHarness`, but the mock never listens: every call goes through `app.inject()`. */
export async function injectHarness(overrides: Partial<MockOptions> = {}): Promise<InjectHarness> {
  const mock = await buildMock({ port: 0, rateLimit: null, ...overrides });
  return harnessOver(mock, throughInject(mock.app), INJECT_ORIGIN);
}

/** Tokens for a fresh tenant and the call helper over one transport. */
async function harnessOver(mock: Mock, send: Send, origin: string): Promise<InjectHarness> {
  const secret = mock.control.options.jwtSecret;
  const org = freshOrg();
  const admin = await mintToken(secret, adminClaims(org));
  const limited = await mintToken(secret, limitedClaims(org));
  const call = async (method: string, path: string, options: CallOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    const token = options.token === undefined ? admin : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    const res = await send({ method, path, headers, ...(body !== undefined ? { body } : {}) });
    let parsed: unknown;
    if (res.text) {
      try {
        parsed = JSON.parse(res.text);
      } catch {
        parsed = res.text;
      }
    }
    const reply: Reply = { status: res.status, headers: res.headers, body: parsed, text: res.text };
    if (options.op) expectContract(options.op, reply);
    return reply;
  };
  return {
    mock,
    origin,
    org,
    admin,
    limited,
    call,
    token: (claims, expiresIn) => mintToken(secret, claims, expiresIn),
    close: () => mock.close(),
  };
}

/** Asserts that a response satisfies the contract of an operation (status declared, body schema, content type). */
function expectContract(operationId: string, reply: Reply): void {
  const result = validator.validateResponse(operationId, {
    status: reply.status,
    contentType: reply.headers['content-type'],
    body: reply.body,
  });
  expect(result, `${operationId} ${reply.status} ${reply.text.slice(0, 300)}`).toEqual({ ok: true });
}

/** Asserts a problem body: the five fields, `status` equal to the HTTP status, instance `<METHOD> <path>`, and the code. */
export function expectProblem(reply: Reply, status: number, code: string | null, instance?: string): void {
  expect(reply.status, reply.text).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(validator.validateSchema('Problem', reply.body), reply.text).toEqual({ ok: true });
  expect(reply.body.status).toBe(status);
  if (instance) expect(reply.body.instance).toBe(instance);
  if (code === null) expect(reply.body).not.toHaveProperty('code');
  else {
    expect(reply.body.code).toBe(code);
    expect(reply.body.type).toMatch(new RegExp(`/errors/${code.replace(/\./g, '\\.')}$`));
  }
}
