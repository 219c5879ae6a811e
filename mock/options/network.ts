import { type PrivateEndpointAllowance, readAllowanceItem } from '../webhooks/address.js';
import type { Parsed } from './kinds.js';

/**
 * The grammars of the network options of mock/options.ts: `--allow-private-endpoints`, `--cors-origin` and
 * `--allowed-host`. Each is a repeatable flag of comma-separated items, as `--fault` is.
 */

/** The items of one flag's text, trimmed, empty ones dropped. */
const itemsOf = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** One `--allow-private-endpoints` value: `all` (the flag alone), or CIDRs, addresses and host names. */
export function parseAllowance(text: string, previous: readonly string[]): Parsed<string[]> {
  const items = itemsOf(text);
  if (items.length === 0) return { ok: true, value: [...previous, 'all'] };
  const read: string[] = [];
  for (const item of items) {
    const result = readAllowanceItem(item);
    if ('error' in result) return { ok: false, error: result.error };
    read.push(result.kind === 'all' ? 'all' : result.value);
  }
  return { ok: true, value: [...previous, ...read] };
}

/** The items collected into the guard's exceptions (`all` anywhere: every private address). */
export function collectAllowance(items: readonly string[]): PrivateEndpointAllowance {
  const cidrs: string[] = [];
  const hosts: string[] = [];
  for (const item of items) {
    const result = readAllowanceItem(item);
    if ('kind' in result && result.kind === 'cidr') cidrs.push(result.value);
    else if ('kind' in result && result.kind === 'host') hosts.push(result.value);
  }
  return { all: items.includes('all'), cidrs, hosts };
}

/** One `--cors-origin` value: web origins (`http://localhost:5173`), each kept as its serialized origin. */
export function parseOrigins(text: string, previous: readonly string[]): Parsed<string[]> {
  const origins: string[] = [];
  for (const item of itemsOf(text)) {
    let url: URL | null = null;
    try {
      url = new URL(item);
    } catch {
      url = null;
    }
    const bare = url !== null && url.pathname === '/' && !url.search && !url.hash && !url.username;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || item.endsWith('/'))
      return { ok: false, error: `'${item}' is not a web origin such as http://localhost:5173 (scheme, host, port)` };
    origins.push(url.origin);
  }
  return { ok: true, value: [...previous, ...origins] };
}

/** One `--allowed-host` value: host names (or addresses) the mock is reached by, without a port. */
export function parseHosts(text: string, previous: readonly string[]): Parsed<string[]> {
  const hosts: string[] = [];
  for (const item of itemsOf(text)) {
    const host = item.toLowerCase().replace(/\.$/, '');
    if (!/^(?:[a-z0-9_](?:[a-z0-9_.-]{0,252})|\[[0-9a-f:.]{2,45}\])$/.test(host))
      return { ok: false, error: `'${item}' is not a host name such as mock.internal (no scheme, no port)` };
    hosts.push(host);
  }
  return { ok: true, value: [...previous, ...hosts] };
}
