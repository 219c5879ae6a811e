import { Command } from 'commander';
import { mintToken } from '../../mock/auth/tokens.js';
import { adminClaims } from '../../mock/auth/presets.js';
import { DEFAULT_JWT_SECRET, DEFAULT_ORG } from '../../mock/options.js';
import { duration, flag, orgName } from '../options.js';
import { ALL_PERMISSIONS, unusedPermissions } from '../../spec/operations/index.js';

/** Longest lifetime either way (a year): `t.token({expiresIn})` takes a negative one too, so the CLI does. */
const MAX_LIFETIME = 31_536_000;

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

/**
 * `opsapi token`: mints an access token the mock accepts, offline: it signs with the secret it is given and never
 * calls a mock, so it works against a shared mock whose admin API is guarded (`--admin-key`) or off (`--no-admin`).
 */
export function tokenCommand(): Command {
  return new Command('token')
    .description(
      'Mint an HS256 access token for the mock, offline with its --jwt-secret (no mock needed; e.g. opsapi token --org acme --perm Warehouse.Counts.Write).',
    )
    .addOption(flag('--org <org>', 'organisation (tenant)', 'ORG').default(DEFAULT_ORG).argParser(orgName))
    .option('--perm <permission>', 'permission to grant (repeatable or comma-separated)', collect)
    .option('--role <role>', 'role to grant (repeatable or comma-separated)', collect)
    .option('--admin', 'grant role App.Admin and every permission of the contract')
    .option(
      '--expires-in <duration>',
      'lifetime (e.g. 3600, 90m, 1d; a bare number is seconds); negative mints a token already expired, for tests',
      duration({ unitless: 's', into: 's', min: -MAX_LIFETIME, max: MAX_LIFETIME, negative: true }),
      24 * 3600,
    )
    .addOption(
      flag('--jwt-secret <secret>', "HS256 secret (the mock's --jwt-secret)", 'JWT_SECRET').default(DEFAULT_JWT_SECRET),
    )
    .action(
      async (o: {
        org: string;
        perm?: string[];
        role?: string[];
        admin?: boolean;
        expiresIn: number;
        jwtSecret: string;
      }) => {
        const claims = o.admin ? adminClaims(o.org) : { org: o.org, permissions: o.perm ?? [], roles: o.role ?? [] };
        for (const name of unusedPermissions(o.perm ?? []))
          process.stderr.write(
            `opsapi token: warning: no operation requires the permission ${name} (they are: ${ALL_PERMISSIONS.join(', ')}); the token is minted\n`,
          );
        process.stdout.write(`${await mintToken(o.jwtSecret, claims, o.expiresIn)}\n`);
      },
    );
}
