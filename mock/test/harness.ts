import { request } from 'undici';
import { expect } from 'vitest';
import { ContractValidator } from '../../spec/validate.js';
import { buildDocument } from '../../spec/build.js';
import { mintToken } from '../auth/tokens.js';
import { adminClaims, limitedClaims } from '../auth/presets.js';
import { startMock, type RunningMock } from '../server.js';
import type { MockOptions } from '../options.js';

const validator = new ContractValidator(buildDocument());

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

/** A running mock on a loopback port, with tokens for a fresh tenant and a call helper. */
export interface Harness {
  mock: RunningMock;
  url: string;
  org: string;
  admin: string;
  limited: string;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  token(claims: Parameters<typeof mintToken>[1], expiresIn?: number): Promise<string>;
  close(): Promise<void>;
}

let orgCounter = 0;

/** A fresh org name, so tests sharing a server never see each other's data. */
export function freshOrg(prefix = 'test'): string {
  orgCounter += 1;
  return `${prefix}-${process.pid}-${orgCounter}`;
}

/**
 * Starts a real mock on 127.0.0.1 (port 0) with rate limiting off unless asked, and mints an admin and a limited
 * token for a fresh tenant. Every response of a call with `op` is validated against the contract.
 */
export async function startHarness(overrides: Partial<MockOptions> = {}): Promise<Harness> {
  const mock = await startMock({ port: 0, rateLimit: null, ...overrides });
  const secret = mock.services.options.jwtSecret;
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
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await request(`${mock.url}${path}`, { method: method as never, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.body.text();
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    let parsed: unknown = undefined;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const reply: Reply = { status: res.statusCode, headers: flat, body: parsed, text };
    if (options.op) expectContract(options.op, reply);
    return reply;
  };
  return {
    mock,
    url: mock.url,
    org,
    admin,
    limited,
    call,
    token: (claims, expiresIn) => mintToken(secret, claims, expiresIn),
    close: () => mock.close(),
  };
}

/** Asserts that a response satisfies the contract of an operation (status declared, body schema, content type). */
export function expectContract(operationId: string, reply: Reply): void {
  const result = validator.validateResponse(operationId, { status: reply.status, contentType: reply.headers['content-type'], body: reply.body });
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
