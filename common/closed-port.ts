import { connect } from 'node:net';

/** Whether a loopback port refuses a connection now. */
function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/**
 * A loopback port nothing listens on, for a test of an unreachable target or a receiver that refuses every connection
 * (bench noisy-neighbour), and that nothing of the suite or the bench can start listening on meanwhile: it is below
 * 1024, outside every range the OS picks port-0 binds from (Linux 32768-60999, others 49152-65535), where every server
 * of the suite binds. A port that `freePort` found free (one of that range) can be taken by a server another test
 * starts meanwhile: a run of `npm test` met an unreachable target that answered, as another test's mock, "the target
 * refused --token".
 */
export async function closedPort(): Promise<number> {
  for (let port = 1023; port > 0; port--) if (await refuses(port)) return port;
  throw new Error('every loopback port below 1024 accepts connections');
}
