import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  dev?: boolean;
  link?: boolean;
  resolved?: string;
  integrity?: string;
  [field: string]: unknown;
}

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  license?: string;
}

/** npm's integrity string (ssri, sha512) of a file. */
function integrityOf(file: string): string {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** The production part of a lock file: its non-dev package entries by install path (links left out: they are not packages). */
function productionEntries(lockFile: string): [path: string, entry: LockEntry][] {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
  return Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.dev && !entry.link);
}

/**
 * Writes a consumer project into `dir` that depends on the packed kit and installs with `npm ci` from local files only.
 *
 * Why (inferred): `npm install <tarball>` must resolve the tarball's version ranges from full registry metadata
 * (packuments), and a cache filled by `npm ci` alone holds only the abbreviated metadata `npm ci` asks for, so offline
 * it fails (ENOTCACHED), and an empty cache has nothing at all. A lock file pins every package,
 * so `npm ci` needs no metadata; this one is the kit's own lock reduced to its production tree (the same install paths:
 * the kit's dependencies sit at the top of node_modules in both), each package resolved to a tarball made from the copy
 * in the kit's node_modules, which `npm ci` verified against the lock's integrity when it installed it. What this proves:
 * the tarball installs with the dependency versions the kit is tested with, and its declared dependencies are satisfied
 * by them. What it cannot prove without a network: that a registry resolution of its ranges today picks working versions.
 * With `omitOptional` (a consumer that installs with --omit=optional), optional packages get no tarball.
 */
export function writeOfflineConsumer(
  root: string,
  tarball: string,
  dir: string,
  options: { omitOptional?: boolean } = {},
): void {
  mkdirSync(join(dir, 'deps'), { recursive: true });
  copyFileSync(tarball, join(dir, 'opsapi.tgz'));
  // The tarball's own manifest, not the repository's: the consumer must get what the package declares.
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }),
  ) as PackageJson;
  const packages: Record<string, LockEntry> = {
    '': { name: 'consumer', version: '1.0.0', dependencies: { opsapi: 'file:opsapi.tgz' } },
    'node_modules/opsapi': {
      version: manifest.version,
      resolved: 'file:opsapi.tgz',
      integrity: integrityOf(join(dir, 'opsapi.tgz')),
      ...(manifest.dependencies ? { dependencies: manifest.dependencies } : {}),
      ...(manifest.optionalDependencies ? { optionalDependencies: manifest.optionalDependencies } : {}),
      ...(manifest.bin ? { bin: manifest.bin } : {}),
      ...(manifest.engines ? { engines: manifest.engines } : {}),
      ...(manifest.license ? { license: manifest.license } : {}),
    },
  };
  productionEntries(join(root, 'package-lock.json')).forEach(([path, entry], index) => {
    const optional = entry.optional === true || entry.devOptional === true;
    if (optional && (options.omitOptional || !existsSync(join(root, path)))) {
      // A native build for another platform, which this machine did not install, or any optional package when the
      // consumer installs with --omit=optional (tsx and esbuild, most of the dependencies' bytes): npm ci skips it
      // (os/cpu, omit), but the lock must still name it.
      const { resolved: _resolved, integrity: _integrity, ...rest } = entry;
      packages[path] = rest;
      return;
    }
    // Not compressed: npm reads a plain tar as well, and gzip of every dependency was most of this function's time.
    const file = join('deps', `${index}.tar`);
    // A registry tarball holds the package under `package/`; its own node_modules (nested dependencies) are separate entries.
    execFileSync('tar', [
      '-cf',
      join(dir, file),
      '--anchored',
      '--exclude=./node_modules',
      '--transform',
      's,^\\.,package,',
      '-C',
      join(root, path),
      '.',
    ]);
    packages[path] = { ...entry, resolved: `file:${file}`, integrity: integrityOf(join(dir, file)) };
  });
  // The kit's `overrides` (a dependency pinned to a version that supports Node 20) shape its lock; a consumer mirroring
  // that lock carries them too, or npm finds the lock out of step with the ranges and wants the network.
  const { overrides } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { overrides?: unknown };
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, dependencies: { opsapi: 'file:opsapi.tgz' }, ...(overrides ? { overrides } : {}) }, null, 2)}\n`,
  );
  writeFileSync(
    join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}

/** Environment of an npm command that may use neither the network nor any cache but `cache` (a folder of the test's). */
export function offlineNpmEnv(cache: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    npm_config_cache: cache,
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
}
