import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startOnFreePort } from '../free-port.js';

const holders: Server[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** What another process of the suite does between freePort and the server's bind: it takes the port. */
function takePort(port: number): Promise<void> {
  const holder = createServer();
  holders.push(holder);
  return new Promise((done) => holder.listen(port, '127.0.0.1', () => done()));
}

describe('startOnFreePort', () => {
  it('starts again on another port when the one found free was taken before the server bound it', async () => {
    const tried: number[] = [];
    const port = await startOnFreePort(async (free) => {
      tried.push(free);
      if (tried.length === 1) {
        await takePort(free);
        throw new Error(`bind ${free}: address already in use`);
      }
      return free;
    });
    expect(tried).toHaveLength(2);
    expect(port).toBe(tried[1]);
    expect(port).not.toBe(tried[0]);
  });

  it("throws a failure of the server's own at once, the port being free", async () => {
    let starts = 0;
    await expect(
      startOnFreePort(async () => {
        starts++;
        throw new Error('no such binary');
      }),
    ).rejects.toThrow('no such binary');
    expect(starts).toBe(1);
  });

  it('gives up after the tries it was given, with the last failure', async () => {
    let starts = 0;
    await expect(
      startOnFreePort(async (free) => {
        starts++;
        await takePort(free);
        throw new Error(`taken ${starts}`);
      }, 2),
    ).rejects.toThrow('taken 2');
    expect(starts).toBe(2);
  });
});
