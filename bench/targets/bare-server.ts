/**
 * The ceiling: a bare `node:http` server answering every request with a fixed body shaped like a page of
 * 25 SKUs (about the size of the mock's answer), or a fixed 401 problem when no credentials are sent.
 * Run as its own process: `node --import tsx bench/targets/bare-server.ts <port>`; prints its URL when ready.
 */
import { serveFixedPage } from './fixed-page-server.js';

serveFixedPage(Number(process.argv[2] ?? 0));
