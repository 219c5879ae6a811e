import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { opsapi, stderrLines } from './run-cli.js';

/** A permission no operation requires grants nothing: `opsapi token` still mints the token, and says so. */
describe('opsapi token --perm', () => {
  it('warns on stderr for a permission no operation requires, and mints the token all the same', async () => {
    const run = await opsapi(['token', '--org', 'acme', '--perm', 'Items.Skus.Read,Warehouse.Counts.Write']);
    expect(run.code, run.stderr).toBe(0);
    expect(decodeJwt(run.stdout.trim()).permissions).toEqual(['Items.Skus.Read', 'Warehouse.Counts.Write']);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toMatch(/^opsapi token: warning: no operation requires the permission Items\.Skus\.Read /);
  });

  it('says nothing for permissions operations require', async () => {
    const run = await opsapi(['token', '--org', 'acme', '--perm', 'Warehouse.Counts.Write']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });
});
