/**
 * A stand-in for a real deployment: a `node:http` server that answers every request after a fixed delay (default
 * 5 ms, a deployment's own work and its database), with a page of 25 SKUs, or a 401 problem when no credentials are
 * sent. What the proxy adds is then measured against answers that take as long as real ones, not against the
 * fastest mock (a proxy's cost reads differently next to 0.2 ms than next to 5 ms).
 * Run as its own process: `node --import tsx bench/targets/delayed-server.ts <port> [delayMs]`; prints its URL when
 * ready.
 */
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const delayMs = Number(process.argv[3] ?? 5);

// Shaped like the contract's SKU page (ids, references, nullable fields, dates), so the proxy judges a full page;
// in descending name order, as the bench's list requests ask (`sortBy=-name`), so it finds nothing to report.
const items = Array.from({ length: 25 }, (_, k) => {
  const i = 24 - k;
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

const server = createServer((req, res) => {
  req.resume();
  setTimeout(() => {
    if (req.headers.authorization === undefined && req.headers['x-api-key'] === undefined) {
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
  }, delayMs);
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
