import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard's ranges (docs/DESIGN.md, "Shared sandbox"): a webhook receiver is a public service, so an endpoint
 * resolving into a range no public receiver lives in is refused. IPv4: the IANA special-purpose registry's ranges that
 * are not globally reachable (RFC 6890), multicast and the reserved 240/4 (broadcast included).
 */
const IPV4_RANGES: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the limited broadcast 255.255.255.255
];

/**
 * IPv6 prefixes that carry an IPv4 address in their last 32 bits: an endpoint written in one of them reaches (through a
 * translator, or the host's own stack) the IPv4 address it embeds, so it is refused when that address is.
 */
const IPV4_EMBEDDING_PREFIXES: readonly string[] = [
  '::', // IPv4-compatible, ::a.b.c.d (RFC 4291 section 2.5.5.1, deprecated)
  '::ffff:', // IPv4-mapped, ::ffff:a.b.c.d
  '::ffff:0:', // IPv4-translated, ::ffff:0:a.b.c.d (RFC 2765)
  '64:ff9b::', // NAT64 well-known prefix (RFC 6052)
];

/** IPv6 ranges with no public receiver in them (IANA IPv6 special-purpose registry). */
const IPV6_RANGES: readonly (readonly [string, number])[] = [
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the IPv4 it reaches is obfuscated, so it cannot be checked
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

/** The 16 bits of an IPv4 address's first or second half, in hex (6to4 writes the address as two IPv6 groups). */
function hexGroups(ipv4: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function blockedRanges(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of IPV4_RANGES) {
    list.addSubnet(net, prefix, 'ipv4');
    for (const embedding of IPV4_EMBEDDING_PREFIXES) list.addSubnet(`${embedding}${net}`, 96 + prefix, 'ipv6');
    // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 routes to the IPv4 address AA.BB.CC.DD.
    list.addSubnet(`2002:${hexGroups(net)}::`, 16 + prefix, 'ipv6');
  }
  for (const [net, prefix] of IPV6_RANGES) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

const BLOCKED = blockedRanges();

/** The family of an IP literal as BlockList names it, or null for anything else. */
function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const family = isIP(address);
  return family === 4 ? 'ipv4' : family === 6 ? 'ipv6' : null;
}

/** Whether an IP address is in a range no public receiver lives in (loopback, private, link-local, reserved, ...). */
function isPrivateAddress(address: string): boolean {
  const family = familyOf(address);
  // Not an address at all: refused, as nothing checked can be trusted.
  return family === null ? true : BLOCKED.check(address, family);
}

/**
 * The exceptions `--allow-private-endpoints` names: CIDRs (or single addresses) and host names. A name allows
 * whatever it resolves to, as an operator who names `host.docker.internal` means that host wherever it is.
 */
export interface PrivateEndpointAllowance {
  /** Every private address is allowed (the flag without a value): the guard is off. */
  readonly all: boolean;
  readonly cidrs: readonly string[];
  readonly hosts: readonly string[];
}

/** A host name as compared: lower case, without a trailing dot or IPv6 brackets. */
function bareHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}

/** One `--allow-private-endpoints` item read: a CIDR, an address or a host name; or why it is none. */
export function readAllowanceItem(
  item: string,
): { kind: 'all' } | { kind: 'cidr'; value: string } | { kind: 'host'; value: string } | { error: string } {
  const text = item.trim();
  if (text === '' || text === 'all' || text === '*') return { kind: 'all' };
  const slash = text.indexOf('/');
  const address = bareHost(slash === -1 ? text : text.slice(0, slash));
  const family = familyOf(address);
  if (family !== null) {
    const max = family === 'ipv4' ? 32 : 128;
    const prefix = slash === -1 ? max : Number(text.slice(slash + 1));
    if (
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > max ||
      (slash !== -1 && !/^\d+$/.test(text.slice(slash + 1)))
    )
      return { error: `'${item}' has no valid prefix length (0-${max})` };
    return { kind: 'cidr', value: `${address}/${prefix}` };
  }
  if (slash === -1 && /^[a-z0-9_]([a-z0-9_.-]{0,252})$/.test(address)) return { kind: 'host', value: address };
  return { error: `'${item}' is not a CIDR, an IP address or a host name` };
}

/**
 * The SSRF guard of webhook delivery: which resolved addresses of an endpoint may be connected to. Checked on the
 * very addresses the socket then uses (./origin-pools.ts), so no DNS answer can change between the check and the connect.
 */
export class EndpointGuard {
  private readonly allowed = new BlockList();
  private readonly hosts: ReadonlySet<string>;

  constructor(allowance: Pick<PrivateEndpointAllowance, 'cidrs' | 'hosts'>) {
    for (const cidr of allowance.cidrs) {
      const [address = '', prefix = ''] = cidr.split('/');
      const family = familyOf(address);
      if (family !== null) this.allowed.addSubnet(address, Number(prefix), family);
    }
    this.hosts = new Set(allowance.hosts.map(bareHost));
  }

  /** Whether connecting to `address`, resolved from the endpoint's `hostname`, is refused. */
  refuses(hostname: string, address: string): boolean {
    if (!isPrivateAddress(address)) return false;
    if (this.hosts.has(bareHost(hostname))) return false;
    const family = familyOf(address);
    if (family === null) return true;
    // An IPv4-mapped address is allowed by the IPv4 CIDR it maps: BlockList matches ::ffff:a.b.c.d against IPv4 rules.
    return !this.allowed.check(address, family);
  }
}

/**
 * The guard a mock delivers through, or null for none (docs/DESIGN.md, "Shared sandbox"). Off loopback it is on by
 * default: a mock others reach must not become their way into the private network it sits in; `--allow-private-endpoints`
 * alone lifts it, with a list makes exceptions. On loopback it is off (the receivers of local tests are on loopback)
 * unless `--block-private-endpoints` forces it, which also wins over `--allow-private-endpoints` alone.
 */
export function endpointGuardFor(setting: {
  readonly loopbackHost: boolean;
  readonly blockPrivateEndpoints: boolean;
  readonly allowPrivateEndpoints: PrivateEndpointAllowance;
}): EndpointGuard | null {
  const { loopbackHost, blockPrivateEndpoints, allowPrivateEndpoints } = setting;
  if (blockPrivateEndpoints) return new EndpointGuard(allowPrivateEndpoints);
  if (loopbackHost || allowPrivateEndpoints.all) return null;
  return new EndpointGuard(allowPrivateEndpoints);
}

/** Error code of a connection the SSRF guard refused at connect time (./origin-pools.ts). */
export const BLOCKED_CODE = 'OPSAPI_BLOCKED_ENDPOINT';

/**
 * The excerpt recorded for an attempt the guard refused: no connection was made, so there is no answer to show, only
 * that it was blocked and the flag that would allow it (inferred: the attempt record is where a tenant looks).
 */
export const BLOCKED_EXCERPT =
  'Blocked: the endpoint resolves to a private, loopback or reserved address (the mock does not connect there; an operator allows it with --allow-private-endpoints).';
