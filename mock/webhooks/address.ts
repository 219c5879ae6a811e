import { BlockList, isIPv4 } from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT and unique-local ranges (SSRF guard). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, prefix, 'ipv6');

/** Whether an IP address is loopback or private. IPv4-mapped IPv6 addresses are checked as IPv4. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return PRIVATE.check(mapped[1], 'ipv4');
  return isIPv4(address) ? PRIVATE.check(address, 'ipv4') : PRIVATE.check(address, 'ipv6');
}

/** Error code of a connection the SSRF guard refused at connect time (./agents.ts). */
export const BLOCKED_CODE = 'OPSAPI_BLOCKED_ENDPOINT';
