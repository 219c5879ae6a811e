import { createServer, type ServerResponse } from 'node:http';

/**
 * A `node:http` server answering every request with a fixed page of 25 SKUs shaped like the contract's (ids,
 * references, nullable fields, dates; about the size of the mock's answer), or a fixed 401 problem when no
 * credentials are sent; after `delayMs` when given. Listens on loopback and prints its URL when ready.
 */
export function serveFixedPage(port: number, options: { delayMs?: number; descending?: boolean } = {}): void {
  const items = Array.from({ length: 25 }, (_, k) => {
    const i = options.descending ? 24 - k : k;
    const n = String(1000 + i).padStart(6, '0');
    return {
      id: `sku_bench00000_${n}`,
      reference: `PART-${n}`,
      name: `Stainless Steel Bearing ${i + 10} mm`,
      description:
        i % 3 === 0 ? 'A fixed description of about the length the seeded catalog uses for some of its SKUs.' : null,
      familyId: i % 2 === 0 ? `fam_bench00000_${String(i).padStart(4, '0')}` : null,
      status: i % 5 === 0 ? 'Inactive' : 'Active',
      baseUnitOfMeasureId: 'uom_bench00000_pcs',
      totalStock: 100 + i * 7.25,
      isStockControlled: true,
      createdAt: '2024-12-01T23:36:43.000Z',
      lastModifiedAt: '2025-07-18T19:29:44.000Z',
    };
  });
  const page = Buffer.from(
    JSON.stringify({ results: items, pageNumber: 1, pageSize: 25, totalPages: 12, totalCount: 300 }),
  );
  const problem = Buffer.from(
    JSON.stringify({
      type: 'https://www.rfc-editor.org/rfc/rfc9110#section-15.5.2',
      title: 'Unauthorized',
      status: 401,
      detail: 'The request has no credentials: send Authorization: Bearer <token> or X-Api-Key.',
      instance: 'GET /v1/items/skus',
    }),
  );
  const answer = (res: ServerResponse, authenticated: boolean): void => {
    if (!authenticated) {
      res.writeHead(401, {
        'content-type': 'application/problem+json; charset=utf-8',
        'content-length': problem.length,
        'www-authenticate': 'Bearer realm="bench"',
      });
      res.end(problem);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': page.length });
    res.end(page);
  };
  const delayMs = options.delayMs ?? 0;
  const server = createServer((req, res) => {
    req.resume();
    const authenticated = req.headers.authorization !== undefined || req.headers['x-api-key'] !== undefined;
    if (delayMs > 0) setTimeout(answer, delayMs, res, authenticated);
    else answer(res, authenticated);
  });
  server.keepAliveTimeout = 72_000;
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    process.stdout.write(`http://127.0.0.1:${actual}\n`);
  });
  const shutdown = () => server.close(() => process.exit(0));
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
