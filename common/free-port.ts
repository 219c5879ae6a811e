import { createServer } from 'node:net';

/** A free loopback port, chosen by the OS (tests, benchmarks and peer runs start servers on it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something listens on the loopback port now (binding it fails with EADDRINUSE). */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRINUSE'));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

/**
 * Starts a server that cannot be told to bind port 0 and say which port it got (redis-server, Prism, nginx) on a
 * port `freePort` found free, and again on another one when that port was taken before the server bound it: between
 * the two, another process of the suite binding port 0 may get the same port from the OS. `start` must leave nothing
 * running when it fails. A failure is retried only while the port is taken by then (at most `tries` starts); any other
 * failure is the server's own and is thrown at once.
 */
export async function startOnFreePort<T>(start: (port: number) => Promise<T>, tries = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= tries || !(await portTaken(port))) throw error;
    }
  }
}
