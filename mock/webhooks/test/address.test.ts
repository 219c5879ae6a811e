import { describe, expect, it } from 'vitest';
import { EndpointGuard, endpointGuardFor } from '../address.js';
import { collectAllowance, parseAllowance } from '../../options/network.js';

const NONE = collectAllowance([]);

/** Whether the guard without exceptions refuses an address (an IP literal is its own host name). */
const isPrivateAddress = (address: string) => new EndpointGuard(NONE).refuses(address, address);

describe('the ranges of the SSRF guard', () => {
  it.each([
    ['0.0.0.0'],
    ['10.1.2.3'],
    ['100.64.0.1'],
    ['127.0.0.1'],
    ['169.254.169.254'],
    ['172.16.0.1'],
    ['192.0.0.8'],
    ['192.168.1.1'],
    ['198.18.0.1'],
    ['198.19.255.255'],
    ['224.0.0.1'],
    ['239.255.255.250'],
    ['240.0.0.1'],
    ['255.255.255.255'],
    ['::'],
    ['::1'],
    ['::127.0.0.1'],
    ['::ffff:127.0.0.1'],
    ['::ffff:a9fe:a9fe'],
    ['::ffff:0:10.0.0.1'],
    ['64:ff9b::127.0.0.1'],
    ['64:ff9b::a9fe:a9fe'],
    ['64:ff9b:1::1'],
    ['2002:7f00:1::1'],
    ['2002:c0a8:101::'],
    ['2001::1'],
    ['fc00::1'],
    ['fd12:3456::1'],
    ['fe80::1'],
    ['ff02::1'],
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['198.20.0.1'],
    ['223.255.255.255'],
    ['2606:4700::1111'],
    ['::ffff:8.8.8.8'],
    ['64:ff9b::8.8.8.8'],
    ['2002:808:808::1'],
  ])('lets %s through', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses what is not an address at all', () => {
    expect(isPrivateAddress('localhost')).toBe(true);
  });
});

describe('exceptions and when the guard is on', () => {
  it('allows a named CIDR or host name and nothing else', () => {
    const guard = new EndpointGuard(collectAllowance(['172.17.0.0/16', 'host.docker.internal']));
    expect(guard.refuses('172.17.0.1', '172.17.0.1')).toBe(false);
    expect(guard.refuses('any.internal', '::ffff:172.17.0.9')).toBe(false);
    expect(guard.refuses('Host.Docker.Internal.', '192.168.65.254')).toBe(false);
    expect(guard.refuses('other.internal', '192.168.65.254')).toBe(true);
    expect(guard.refuses('10.0.0.1', '10.0.0.1')).toBe(true);
    expect(guard.refuses('example.com', '93.184.215.14')).toBe(false);
  });

  it('is on off loopback, off on loopback unless forced, and lifted by the flag alone', () => {
    const all = collectAllowance(['all']);
    expect(endpointGuardFor({ loopbackHost: true, blockPrivateEndpoints: false, allowPrivateEndpoints: NONE })).toBe(
      null,
    );
    expect(
      endpointGuardFor({ loopbackHost: false, blockPrivateEndpoints: false, allowPrivateEndpoints: NONE }),
    ).not.toBe(null);
    expect(endpointGuardFor({ loopbackHost: true, blockPrivateEndpoints: true, allowPrivateEndpoints: NONE })).not.toBe(
      null,
    );
    expect(endpointGuardFor({ loopbackHost: false, blockPrivateEndpoints: false, allowPrivateEndpoints: all })).toBe(
      null,
    );
    expect(endpointGuardFor({ loopbackHost: false, blockPrivateEndpoints: true, allowPrivateEndpoints: all })).not.toBe(
      null,
    );
  });

  it('reads the flag: alone is all, a list its items, a bad item one line', () => {
    expect(parseAllowance('', [])).toEqual({ ok: true, value: ['all'] });
    expect(parseAllowance('10.0.0.0/8, host.docker.internal,::1', [])).toEqual({
      ok: true,
      value: ['10.0.0.0/8', 'host.docker.internal', '::1/128'],
    });
    expect(parseAllowance('10.0.0.0/33', [])).toMatchObject({ ok: false, error: expect.stringMatching(/prefix/) });
    expect(parseAllowance('http://x', [])).toMatchObject({ ok: false });
  });
});
