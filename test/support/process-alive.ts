/**
 * Whether a process of that pid exists: signal 0 checks without sending anything; EPERM means it exists under
 * another user. Used to tell a folder or lock left by a killed test run from one a running run holds.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
