import { Command } from 'commander';
import { mintToken } from '../../mock/auth/tokens.js';
import { adminClaims } from '../../mock/auth/presets.js';
import { DEFAULT_JWT_SECRET, DEFAULT_MOCK_URL, DEFAULT_ORG } from '../../mock/options.js';
import { duration, flag, orgName } from '../options.js';
import { ALL_PERMISSIONS, unusedPermissions } from '../../spec/operations/index.js';
import { MintError, mintOnMock } from '../mint-on-mock.js';
import { targetOptions } from '../target-options.js';

/** Longest lifetime either way (a year): `t.token({expiresIn})` takes a negative one too, so the CLI does. */
const MAX_LIFETIME = 31_536_000;

/** Lifetime of a token signed offline when none is asked (a day). */
const OFFLINE_LIFETIME = 24 * 3600;

const collect = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

/**
 * `opsapi token`: mints an access token the mock accepts. Offline by default: it signs with the secret it is given and
 * never calls a mock, so it works against a shared mock whose admin API is guarded (`--admin-key`) or off
 * (`--no-admin`). With `--team-key` it asks the mock instead (`POST /__mock/tokens`, docs/DESIGN.md, "Shared
 * sandbox"): a team mints tokens for its own orgs without ever holding the JWT secret.
 */
export function tokenCommand(): Command {
  return new Command('token')
    .description(
      'Mint an HS256 access token for the mock: offline with its --jwt-secret (no mock needed; e.g. opsapi token --org acme --perm Warehouse.Counts.Write), or on a shared mock with your --team-key.',
    )
    .addOption(flag('--org <org>', 'organisation (tenant)', 'ORG').default(DEFAULT_ORG).argParser(orgName))
    .option('--perm <permission>', 'permission to grant (repeatable or comma-separated)', collect)
    .option('--role <role>', 'role to grant (repeatable or comma-separated)', collect)
    .option('--admin', 'grant role App.Admin and every permission of the contract')
    .option(
      '--expires-in <duration>',
      "lifetime (e.g. 3600, 90m, 1d; a bare number is seconds; default 1d, with --team-key the mock's longest for teams); negative mints a token already expired, for tests",
      duration({ unitless: 's', into: 's', min: -MAX_LIFETIME, max: MAX_LIFETIME, negative: true }),
    )
    .addOption(
      flag('--jwt-secret <secret>', "HS256 secret (the mock's --jwt-secret)", 'JWT_SECRET').default(DEFAULT_JWT_SECRET),
    )
    .addOption(targetOptions.teamKey())
    .addOption(
      flag('--base-url <url>', 'the mock that mints the token, with --team-key', 'BASE_URL').default(DEFAULT_MOCK_URL),
    )
    .action(
      async (o: {
        org: string;
        perm?: string[];
        role?: string[];
        admin?: boolean;
        expiresIn?: number;
        jwtSecret: string;
        teamKey?: string;
        baseUrl: string;
      }) => {
        const claims = o.admin ? adminClaims(o.org) : { org: o.org, permissions: o.perm ?? [], roles: o.role ?? [] };
        for (const name of unusedPermissions(o.perm ?? []))
          process.stderr.write(
            `opsapi token: warning: no operation requires the permission ${name} (they are: ${ALL_PERMISSIONS.join(', ')}); the token is minted\n`,
          );
        if (!o.teamKey) {
          process.stdout.write(`${await mintToken(o.jwtSecret, claims, o.expiresIn ?? OFFLINE_LIFETIME)}\n`);
          return;
        }
        try {
          process.stdout.write(`${await mintOnMock(o.baseUrl, { teamKey: o.teamKey }, claims, o.expiresIn)}\n`);
          // Idle keep-alive connections to the mock must not hold the process.
          process.exit(0);
        } catch (error) {
          if (!(error instanceof MintError)) throw error;
          process.stderr.write(`opsapi token: ${error.message}\n`);
          process.exit(2);
        }
      },
    );
}
