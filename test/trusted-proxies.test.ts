/**
 * Who the client is, for the per-client limits: the peer, or, behind a trusted proxy, the last
 * address in X-Forwarded-For that is not one of ours; never what an untrusted peer claims. IPv6
 * clients count by their /64.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientKey, TrustedProxies } from '../server/http/trusted-proxies.js';

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

  it('counts IPv4 by address and IPv6 by /64', () => {
    expect(clientKey('198.51.100.9')).toBe('198.51.100.9');
    expect(clientKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::99')).toBe(clientKey('2001:0db8:0001:0002:ffff::1'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
  });
});
