/**
 * Who the client is, for the per-client limits: the peer, or, behind a trusted proxy, the last
 * address in X-Forwarded-For that is not one of ours; never what an untrusted peer claims. IPv6
 * clients count by their /64.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientKey, TrustedProxies } from '../server/http/trusted-proxies.js';
import { ConfigError, loadConfig } from '../server/settings/config.js';

const req = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('the client behind the proxies', () => {
  const trusted = new TrustedProxies(['10.0.0.0/8', '::1']);

  it('is the peer when the peer is not a trusted proxy, whatever it forwards', () => {
    expect(trusted.clientOf(req('203.0.113.7', '198.51.100.1'))).toBe('203.0.113.7');
    expect(trusted.clientOf(req('::ffff:203.0.113.7'))).toBe('203.0.113.7');
  });

  it('is the last untrusted address a trusted proxy names; what the client made up to its left is ignored', () => {
    expect(trusted.clientOf(req('10.1.2.3', '1.1.1.1, 198.51.100.9, 10.0.0.5'))).toBe('198.51.100.9');
    expect(trusted.clientOf(req('::1', '198.51.100.9'))).toBe('198.51.100.9');
    expect(trusted.clientOf(req('10.1.2.3', 'not-an-address, 10.0.0.7'))).toBe('10.1.2.3');
    expect(trusted.clientOf(req('10.1.2.3'))).toBe('10.1.2.3');
  });

  it('is, when every hop is ours, the furthest address the proxies named, as Express’s req.ip reads it (proxy-addr)', () => {
    // An earlier version took the peer here; the furthest trusted hop is the one nearest the client.
    expect(trusted.clientOf(req('10.1.2.3', '10.0.0.7'))).toBe('10.0.0.7');
    expect(trusted.clientOf(req('::ffff:10.1.2.3', '10.0.0.7, 10.0.0.8'))).toBe('10.0.0.7');
  });

  it('stops at the first hop that is not ours, even where a made-up one further left would be', () => {
    // An earlier version skipped a word that is no address and went on to the left, where the client writes.
    expect(trusted.clientOf(req('10.1.2.3', '198.51.100.1, not-an-address, 10.0.0.7'))).toBe('10.1.2.3');
    expect(trusted.clientOf(req('10.1.2.3', '198.51.100.1, 203.0.113.5, 10.0.0.7'))).toBe('203.0.113.5');
  });

  it('trusts IPv4 peers on a dual-stack socket and IPv4-mapped entries by their IPv4 address, never across families otherwise', () => {
    expect(trusted.trusts('::ffff:10.9.9.9')).toBe(true);
    expect(trusted.trusts('10.9.9.9')).toBe(true);
    expect(trusted.trusts('::1')).toBe(true);
    expect(trusted.trusts('11.0.0.1')).toBe(false);
    expect(trusted.trusts('::2')).toBe(false);
    expect(trusted.trusts('not-an-address')).toBe(false);
    expect(new TrustedProxies([]).trusts('127.0.0.1')).toBe(false);
    // A /8 of IPv4 does not reach an IPv6 address whose low bits look like it.
    expect(new TrustedProxies(['10.0.0.0/8']).trusts('::a00:1')).toBe(false);
  });

  it('takes named ranges and netmasks as Express does', () => {
    const named = new TrustedProxies(['loopback', 'uniquelocal', '192.0.2.0/255.255.255.0']);
    for (const address of ['127.0.0.1', '::1', '172.16.4.4', 'fd00::1', '192.0.2.77']) expect(named.trusts(address), address).toBe(true);
    for (const address of ['8.8.8.8', '2001:db8::1', '192.0.3.1']) expect(named.trusts(address), address).toBe(false);
  });

  it('counts IPv4 by address and IPv6 by /64', () => {
    expect(clientKey('198.51.100.9')).toBe('198.51.100.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::99')).toBe(clientKey('2001:0db8:0001:0002:ffff::1'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});

describe('TRUSTED_PROXIES as configured', () => {
  const load = (value: string) => loadConfig({ TRUSTED_PROXIES: value }).TRUSTED_PROXIES;

  it('takes addresses, CIDR ranges, netmasks and named ranges', () => {
    expect(load('10.0.0.0/8, ::1,fd00::/8, 192.0.2.0/255.255.255.0, loopback')).toEqual([
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '192.0.2.0/255.255.255.0',
      'loopback',
    ]);
  });

  it.each([
    ['a word', 'edge.internal', /not an address written out: edge.internal/],
    ['too many bits', '10.0.0.0/33', /invalid range on address: 10.0.0.0\/33/],
    // An earlier version took /0 (every address a proxy, every X-Forwarded-For believed); proxy-addr refuses it.
    ['a range of every address', '0.0.0.0/0', /invalid range on address/],
    // ipaddr.js reads these as 0.0.0.10 and 10.0.0.1: not what anyone means.
    ['a short IPv4 form', '10', /not an address written out: 10/],
    ['a hexadecimal IPv4 form', '0x0a.0.0.1', /not an address written out/],
    ['a slash with no bits', '10.0.0.0/', /invalid range on address/],
  ])('refuses %s at start, naming it', (_what, value, message) => {
    expect(() => load(value)).toThrow(ConfigError);
    expect(() => load(value)).toThrow(message);
  });
});
