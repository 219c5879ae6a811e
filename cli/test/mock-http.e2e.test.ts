import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../../common/closed-port.js';
import { exchangeWithMock, MockUnreachable } from '../mock-http.js';

/** Servers of the test, closed after it with their connections (a silent one's are never ended by the client). */
const servers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((stop) => stop()));
});

/** An HTTP server on `port` (0: any) answering 302 with a problem body, a repeated header and what it was sent. */
function answering(port: number): Promise<{ url: string } | null> {
  const server: Server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(302, { location: '/elsewhere', 'set-cookie': ['a=1', 'b=2'], 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, key: req.headers['x-admin-key'], body }));
    });
  });
  servers.push(
    () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  );
  return new Promise((resolve) => {
    server.once('error', () => resolve(null));
    server.listen(port, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` }),
    );
  });
}

describe("the CLI's exchange with the mock", () => {
  it('sends the method, headers and body, and answers the status, headers and text without following a redirect', async () => {
    const server = await answering(0);
    const answer = await exchangeWithMock(`${server?.url}/__mock/teams`, {
      method: 'POST',
      headers: { 'x-admin-key': 'k', 'content-type': 'application/json' },
      body: '{"name":"é"}',
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(302);
    expect(answer.header('Location')).toBe('/elsewhere');
    expect(answer.header('set-cookie')).toBe('a=1, b=2');
    expect(answer.header('www-authenticate')).toBeUndefined();
    expect(JSON.parse(answer.text)).toEqual({ method: 'POST', key: 'k', body: '{"name":"é"}' });
  });

  it('reaches a mock on a port the Fetch standard calls bad (6000, 6665-6669, 10080), as any HTTP client does', async () => {
    let server: { url: string } | null = null;
    for (const port of [6665, 6666, 6667, 6668, 6669, 6000, 10080]) {
      server = await answering(port);
      if (server) break;
    }
    expect(server, 'one of the ports is free').not.toBeNull();
    const answer = await exchangeWithMock(`${server?.url}/x`, { headers: {}, timeoutMs: 5000 });
    expect(answer.status).toBe(302);
  });

  it('says why no answer came, on one line: refused, timed out, not an HTTP URL', async () => {
    const port = await closedPort();
    const refused = await exchangeWithMock(`http://127.0.0.1:${port}/`, { headers: {}, timeoutMs: 5000 }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(MockUnreachable);
    expect((refused as Error).message).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);

    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => {
      socket.on('error', () => undefined);
      sockets.push(socket);
    });
    servers.push(
      () =>
        new Promise((done) => {
          silent.close(() => done());
          for (const socket of sockets) socket.destroy();
        }),
    );
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', () => done()));
    const silentPort = (silent.address() as { port: number }).port;
    const timedOut = await exchangeWithMock(`http://127.0.0.1:${silentPort}/`, { headers: {}, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect((timedOut as Error).message).toBe('timed out');

    const ftp = await exchangeWithMock('ftp://127.0.0.1/', { headers: {}, timeoutMs: 300 }).catch((e: unknown) => e);
    expect((ftp as Error).message).toBe('ftp: is not HTTP');

    // A header Node will not send (a --header given by hand): one line as well, never a thrown TypeError.
    const badHeader = await exchangeWithMock(`http://127.0.0.1:${port}/`, {
      headers: { 'x-trace': 'a\u0001b' },
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(badHeader).toBeInstanceOf(MockUnreachable);
    expect((badHeader as Error).message).toBe('Invalid character in header content ["x-trace"]');
  });
});
