import { describe, expect, it } from 'vitest';
import { WriteSession } from '../write-session.js';

describe('a write session: one replica holding a tenant lock for its concurrent writers', () => {
  it('admits writers while young, and ends with its last writer', async () => {
    const session = new WriteSession('r:1', 1000);
    const now = Date.now();
    expect(session.admits(now)).toBe(true);
    session.join();
    session.join();
    expect(session.leave()).toBe(false);
    expect(session.leave()).toBe(true);
    // Once its last writer left it takes no one else, even while young.
    expect(session.admits(now)).toBe(false);
    session.end();
    await expect(session.ended).resolves.toBeUndefined();
  });

  it('stops admitting once it is older than its open time', () => {
    const session = new WriteSession('r:1', 25);
    expect(session.admits(Date.now() + 30)).toBe(false);
  });

  it('stops admitting when another replica waits for the lock, and says it yielded', () => {
    const session = new WriteSession('r:1', 1000);
    session.join();
    session.stopAdmitting();
    expect(session.admits(Date.now())).toBe(false);
    expect(session.yielding).toBe(true);
  });

  it('lets joiners see a failed lock as a rejection', async () => {
    const session = new WriteSession('r:1', 1000);
    session.lockFailed(new Error('Redis is gone'));
    await expect(session.acquired).rejects.toThrow('Redis is gone');
    expect(session.admits(Date.now())).toBe(false);
  });
});
