import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { Agent } from 'undici';
import { expect } from 'vitest';
import { sharedContract } from '../../../spec/shared-contract.js';
import { OPERATIONS, type OperationDef } from '../../../spec/operations/index.js';
import type { FixtureManifest } from '../../../fixtures/seed/index.js';
import { verifySignature } from '../../../common/signature.js';
import type { Harness, InjectHarness } from '../harness.js';

/** Every request of the reliability tests gives up after this long: a hang is a failure, never a stuck test. */
const REQUEST_TIMEOUT_MS = 10_000;

export const { validator } = sharedContract();

/** A response as the reliability tests see it. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: any;
  text: string;
}

/** One request, sent exactly as given (the path is not normalised: `..` and percent-escapes reach the server). */
interface WireRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An HTTP client for adversarial requests: raw paths, every request bounded by a timeout. */
export class Wire {
  private readonly agent = new Agent({
    connections: 16,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });

  constructor(readonly origin: string) {}

  async send(req: WireRequest): Promise<WireReply> {
    const res = await this.agent.request({
      origin: this.origin,
      path: req.path,
      method: req.method as never,
      headers: req.headers ?? {},
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: flatten(res.headers), body: parse(text), text };
  }

  /** Sends bytes over a fresh socket and reads the response until the server closes it (or the timeout). */
  raw(data: string | Buffer): Promise<WireReply> {
    const url = new URL(this.origin);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms to ${JSON.stringify(String(data).slice(0, 80))}`));
      }, REQUEST_TIMEOUT_MS);
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString('latin1');
        const split = text.indexOf('\r\n\r\n');
        const head = split === -1 ? text : text.slice(0, split);
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const colon = line.indexOf(':');
          if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
        }
        let bodyText = split === -1 ? '' : text.slice(split + 4);
        if (headers['transfer-encoding'] === 'chunked') bodyText = dechunk(bodyText);
        resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: parse(bodyText), text: bodyText });
      });
      socket.end(data);
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function dechunk(text: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const eol = text.indexOf('\r\n', i);
    if (eol === -1) return out;
    const size = parseInt(text.slice(i, eol), 16);
    if (!Number.isFinite(size) || size === 0) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
}

interface Route {
  readonly op: OperationDef;
  readonly method: string;
  readonly regex: RegExp;
  readonly params: number;
}

const ROUTES: Route[] = OPERATIONS.map((op) => ({
  op,
  method: op.method.toUpperCase(),
  regex: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  params: op.pathParams.length,
}));

/** The operation a request reaches (static paths win over templates, like the router), or undefined. */
export function operationOf(method: string, path: string): OperationDef | undefined {
  const q = path.indexOf('?');
  const bare = q === -1 ? path : path.slice(0, q);
  const m = method.toUpperCase();
  return ROUTES.filter((r) => r.method === m && r.regex.test(bare)).sort((a, b) => a.params - b.params)[0]?.op;
}

/**
 * The invariants of every answer: never a 5xx; every error a problem body that validates against the contract
 * (`status` equal to the HTTP status); every answer of a contract operation valid for that operation.
 * Protocol-level rejections (not valid HTTP, 431) never reach an operation and are checked as problems only.
 */
export function checkReply(method: string, path: string, reply: WireReply, context = ''): void {
  const where = `${method} ${path.slice(0, 200)}${context ? ` (${context})` : ''} -> ${reply.status} ${reply.text.slice(0, 300)}`;
  // One assertion per answer, of every invariant it breaks (the fuzz sends thousands of requests).
  expect(brokenInvariants(method, path, reply), where).toEqual([]);
}

/** What an answer breaks of `checkReply`'s invariants, each said in a line; empty when it keeps them. */
function brokenInvariants(method: string, path: string, reply: WireReply): string[] {
  const broken: string[] = [];
  if (reply.status < 200 || reply.status >= 500) broken.push(`status ${reply.status} is outside 200..499`);
  if (method.toUpperCase() === 'HEAD') return broken;
  if (reply.status >= 400) {
    const problem = validator.validateProblem({
      status: reply.status,
      contentType: reply.headers['content-type'],
      body: reply.body,
    });
    if (!problem.ok) broken.push(`not a problem of the contract: ${problem.errors.join('; ')}`);
    if (reply.body?.status !== reply.status) broken.push(`problem status ${reply.body?.status} is not ${reply.status}`);
  }
  const protocolLevel = reply.status === 431 || (reply.status === 400 && reply.body?.instance === 'INVALID /');
  const op = operationOf(method, path);
  if (op && !protocolLevel) {
    const answer = validator.validateResponse(op.operationId, {
      status: reply.status,
      contentType: reply.headers['content-type'],
      body: reply.body,
    });
    if (!answer.ok) broken.push(`not an answer of ${op.operationId}: ${answer.errors.join('; ')}`);
  }
  return broken;
}

/** Sends a request and checks the invariants; returns the reply. */
export async function probe(wire: Wire, req: WireRequest, context = ''): Promise<WireReply> {
  const reply = await wire.send(req);
  checkReply(req.method, req.path, reply, context);
  return reply;
}

/** `Authorization` and JSON `Content-Type` headers for a token. */
export function bearer(token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...extra };
}

/** A path parameter value that percent-encodes any string, lone surrogates included (as invalid UTF-8 bytes). */
export function encodeSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0xd800 && code <= 0xdfff)
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** The path of an operation with its parameters filled (already encoded values). */
export function pathOf(op: OperationDef, values: Record<string, string>): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

/** Identifiers a tenant's fixtures offer for every path parameter, and a valid body for every operation. */
export function validRequest(
  op: OperationDef,
  m: FixtureManifest,
  ids: { subscriptionId?: string; notificationId?: string } = {},
): { path: string; body?: string } {
  const inspectionId = m.sku.inspectionIds[0] ?? 'none';
  const values: Record<string, string> = {
    skuReference: m.sku.reference,
    inspectionId,
    errorCode: 'COMMON.ENTITY.NOT_FOUND',
  };
  switch (op.operationId) {
    case 'deleteFamily':
      values.id = m.deletableFamilyId;
      break;
    case 'updatePurchaseOrderLine':
      values.id = m.purchaseOrderLine.purchaseOrderId;
      values.lineId = m.purchaseOrderLine.lineId;
      break;
    case 'deleteWebhookSubscription':
      values.id = ids.subscriptionId ?? 'sub_none';
      break;
    default:
      values.id = ids.notificationId ?? 'ntf_none';
  }
  const bodies: Record<string, unknown> = {
    StockUpdateBody: { locationReference: m.sku.locationReference, stock: 7, lotId: m.sku.lotId },
    InspectionUpdateBody: { name: 'Fuzzed inspection', isMandatory: true },
    PurchaseOrderLineUpdateBody: { quantity: 5 },
    CreateApiKeyBody: { name: 'fuzz key' },
    CreateSubscriptionBody: {
      endpoint: 'http://127.0.0.1:1/hook',
      eventName: 'Warehouse.Stock.Updated',
      eventVersion: 1,
    },
    ListBody: { pageNumber: 1, pageSize: 5 },
  };
  const schema = op.requestBody?.schema;
  return { path: pathOf(op, values), ...(schema ? { body: JSON.stringify(bodies[schema] ?? {}) } : {}) };
}

/**
 * What a tenant shows: a few list pages, the subscriptions, the notifications, the manifest SKU with its stock and
 * inspections, the purchase order lines of the manifest, the API keys, the families deleted and the clock.
 * Two snapshots are equal when no write reached the tenant in between.
 */
export async function tenantSnapshot(
  h: Harness,
  wire: Wire,
  token: string,
  org: string,
  m: FixtureManifest,
): Promise<unknown> {
  const get = async (path: string) => {
    const reply = await probe(wire, { method: 'GET', path, headers: bearer(token) });
    expect(reply.status, `${path}: ${reply.text.slice(0, 200)}`).toBe(200);
    return reply.body;
  };
  const search = await probe(wire, {
    method: 'POST',
    path: '/v1/items/families/search',
    headers: bearer(token),
    body: JSON.stringify({ pageSize: 1000, sortBy: 'id' }),
  });
  const tenant = h.mock.control.tenant(org).inspect();
  const stored = tenant?.purchaseOrderLines() ?? [];
  const lines = [m.purchaseOrderLine, m.cancelledPurchaseOrderLine, m.receivedPurchaseOrderLine].map((l) =>
    stored.find((s) => s.purchaseOrderId === l.purchaseOrderId && s.id === l.lineId),
  );
  return {
    skus: [
      await get('/v1/items/skus?pageSize=100&sortBy=id'),
      await get('/v1/items/skus?pageSize=100&pageNumber=3&sortBy=-lastModifiedAt'),
    ],
    families: search.body,
    assets: await get('/v1/maintenance/assets?pageSize=1000&sortBy=id'),
    subscriptions: await get('/v1/notifications/webhook/subscriptions?pageSize=1000&sortBy=id'),
    notifications: await get('/v1/notifications/webhook?pageSize=1000&sortBy=id'),
    manifestSku: await get(`/v1/items/skus?filterBy=${encodeURIComponent(`reference[Equals]${m.sku.reference}`)}`),
    tenant: await get('/v1/admin/tenants/self'),
    record: tenant?.sku(m.sku.reference),
    lines,
    apiKeys: (tenant?.apiKeys() ?? []).map((k) => ({ id: k.id, isActive: k.isActive })),
    tombstones: tenant?.deletedFamilies() ?? [],
    clock: tenant?.clockOffsetSeconds,
  };
}

/** A webhook receiver on 127.0.0.1 that verifies every signature with the tenant secrets it is told. */
export interface Receiver {
  readonly url: string;
  readonly server: Server;
  received: number;
  badSignatures: number;
  secrets: Set<string>;
  close(): Promise<void>;
}

export async function startReceiver(status = 204): Promise<Receiver> {
  const state = { received: 0, badSignatures: 0, secrets: new Set<string>() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      state.received++;
      if (![...state.secrets].some((s) => verifySignature(body, req.headers['x-hmac-signature'], s)))
        state.badSignatures++;
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/hook`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Waits until the webhook engine has nothing under way (bounded). */
export async function settleWebhooks(h: InjectHarness, timeoutMs = 5000): Promise<void> {
  const control = h.mock.control;
  const until = Date.now() + timeoutMs;
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    await control.idle();
    if (control.stats().pendingDeliveries === 0 || Date.now() > until) return;
  }
}
