import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startOnFreePort } from '../../common/free-port.js';
import { spawnChild, type Child } from '../children.js';

/** The project root (bench/targets/ -> ../..). */
export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export type TargetName = 'bare' | 'prism' | 'ours' | 'proxy' | 'redis' | 'baseline' | 'delayed';
export const TARGET_NAMES: readonly TargetName[] = ['bare', 'prism', 'ours'];

/** A target listening on loopback, in its own process. */
export interface Target {
  readonly name: TargetName;
  readonly url: string;
  readonly child: Child;
  /** `performance.now()` when it was spawned. */
  readonly spawnedAt: number;
  /** Milliseconds from spawn to its ready line. */
  readonly readyMs: number;
  stop(): Promise<void>;
}

/** Options of our mock's child. */
export interface OursOptions {
  skus?: number;
  /** Extra CLI flags (default: `--rate-limit off`). */
  flags?: readonly string[];
  /** Write a V8 CPU profile of the mock into this directory (`node --cpu-prof`). */
  profileDir?: string | null;
  readyTimeoutMs?: number;
  /** Run it from this JavaScript file (an older build of the kit: the `baseline` scenario), named `baseline`. */
  baselineCli?: string;
}

const URL_LINE = /^(http:\/\/127\.0\.0\.1:\d+)\s*$/m;

async function started(
  name: TargetName,
  child: Child,
  pattern: RegExp,
  timeoutMs: number,
  t0: number,
): Promise<Target> {
  try {
    const m = await child.waitFor(pattern, timeoutMs);
    const url = m[1];
    if (!url) throw new Error(`${name}: no URL in its ready line`);
    return { name, url, child, spawnedAt: t0, readyMs: performance.now() - t0, stop: () => child.stop(10_000) };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * The port asked of the servers that print the URL they listen on (every one but Prism): 0, so the OS picks a free
 * one at bind time. A port found free beforehand (`freePort`) can be taken by another process before the server binds
 * it, and the tests run many processes at once.
 */
const ANY_PORT = '0';

/**
 * A TypeScript file of the bench (`file`, relative to the project root) run as a process of its own through tsx:
 * `node --import tsx <file> <args>`, so the child's pid is the program's own.
 */
export function spawnBenchScript(
  name: string,
  file: string,
  args: readonly string[] = [],
  env: NodeJS.ProcessEnv = process.env,
): Child {
  return spawnChild(name, process.execPath, ['--import', 'tsx', file, ...args], { cwd: ROOT, env });
}

/** (a) The ceiling: a bare node:http server with a fixed body. */
export async function startBare(): Promise<Target> {
  const t0 = performance.now();
  const child = spawnBenchScript('bare', 'bench/targets/bare-server.ts', [ANY_PORT]);
  return started('bare', child, URL_LINE, 30_000, t0);
}

/**
 * A stand-in for a deployment (./delayed-server.ts): the fixed page of bare, answered after `delayMs` (the proxy
 * scenario's target).
 */
export async function startDelayed(delayMs: number): Promise<Target> {
  const t0 = performance.now();
  const child = spawnBenchScript('delayed', 'bench/targets/delayed-server.ts', [ANY_PORT, String(delayMs)]);
  return started('delayed', child, URL_LINE, 30_000, t0);
}

/** (b) The peer: `prism mock spec/openapi.json` with its defaults (static examples, request logging on). */
export function startPrism(): Promise<Target> {
  // Prism cannot bind port 0 and say which it got: a port found free, and another one if it was taken first.
  return startOnFreePort((port) => {
    const t0 = performance.now();
    const child = spawnChild(
      'prism',
      resolve(ROOT, 'node_modules/.bin/prism'),
      ['mock', '-h', '127.0.0.1', '-p', String(port), 'spec/openapi.json'],
      { cwd: ROOT },
    );
    return started('prism', child, /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000, t0);
  });
}

/** The JavaScript file our mock runs from (`--cli`); null: `cli/opsapi.ts` through tsx. Set once, before any start. */
let compiledCli: string | null = null;

export function runOursFrom(file: string | null): void {
  compiledCli = file;
}

/**
 * The node arguments that run `opsapi` from `cli` (a JavaScript file), or from `cli/opsapi.ts` through tsx when null
 * (what `npx tsx` runs, minus tsx's wrapper process, so the child's pid is the program's own, for its RSS).
 */
export function opsapiEntry(cli: string | null = compiledCli): string[] {
  return cli !== null ? [cli] : ['--import', 'tsx', 'cli/opsapi.ts'];
}

/** The command line that runs `opsapi <args>` as the bench runs our processes (see runOursFrom). */
export function opsapiCommand(args: readonly string[]): [string, string[]] {
  return [process.execPath, [...opsapiEntry(), ...args]];
}

/** (c) Our mock: `opsapi mock --port 0 --rate-limit off --quiet [--skus N]`, run as `opsapiEntry` says. */
export async function startOurs(options: OursOptions = {}): Promise<Target> {
  const nodeFlags = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  const flags = options.flags ?? ['--rate-limit', 'off'];
  const args = [
    ...nodeFlags,
    ...opsapiEntry(options.baselineCli ?? compiledCli),
    'mock',
    '--port',
    ANY_PORT,
    ...flags,
    '--quiet',
    ...(options.skus !== undefined ? ['--skus', String(options.skus)] : []),
  ];
  const t0 = performance.now();
  const name: TargetName = options.baselineCli ? 'baseline' : 'ours';
  const child = spawnChild(name, process.execPath, args, { cwd: ROOT });
  return started(name, child, URL_LINE, options.readyTimeoutMs ?? 60_000, t0);
}

const PROXY_LINE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * `opsapi proxy --target URL --port 0 --quiet`: the checking proxy as users run it (its own process, every exchange
 * judged by the conformance rules), in front of `target`.
 */
export async function startProxy(target: string): Promise<Target> {
  const args = [...opsapiEntry(), 'proxy', '--target', target, '--port', ANY_PORT, '--quiet'];
  const t0 = performance.now();
  const child = spawnChild('proxy', process.execPath, args, { cwd: ROOT });
  return started('proxy', child, PROXY_LINE, 60_000, t0);
}
