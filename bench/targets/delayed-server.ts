/**
 * A stand-in for a real deployment: a `node:http` server that answers every request after a fixed delay (default
 * 5 ms, a deployment's own work and its database), with a page of 25 SKUs, or a 401 problem when no credentials are
 * sent. What the proxy adds is then measured against answers that take as long as real ones, not against the
 * fastest mock (a proxy's cost reads differently next to 0.2 ms than next to 5 ms).
 * Run as its own process: `node --import tsx bench/targets/delayed-server.ts <port> [delayMs]`; prints its URL when
 * ready.
 */
import { serveFixedPage } from './fixed-page-server.js';

// In descending name order, as the bench's list requests ask (`sortBy=-name`), so the proxy finds nothing to report.
serveFixedPage(Number(process.argv[2] ?? 0), { delayMs: Number(process.argv[3] ?? 5), descending: true });
