/**
 * Which peers may speak for the client: a proxy or edge configured in TRUSTED_PROXIES (addresses,
 * CIDR ranges or named ranges, parsed by settings/trusted-proxy-settings.ts). Only what such a
 * peer says (the client's address in X-Forwarded-For, the page variant it chose) is believed; a
 * header anyone else sends is ignored, since anyone can forge it. The walk through
 * X-Forwarded-For is proxy-addr's, as Express's `req.ip` does it; addresses are read by ipaddr.js.
 */
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';
import { compileTrust, type TrustFunction } from '../settings/trusted-proxy-settings.js';

export class TrustedProxies {
  readonly #trust: TrustFunction;
  readonly any: boolean;

  constructor(entries: readonly string[]) {
    this.#trust = compileTrust(entries);
    this.any = entries.length > 0;
  }

  /**
   * The client's address: the peer's, or, when the peer is a trusted proxy, the nearest address
   * in X-Forwarded-For that is not one of ours (each proxy appends the address it saw, so anything
   * to the left of the first untrusted one may be made up by the client). Where that entry is no
   * address at all, the client is the peer: a word a client made up never names a client.
   */
  clientOf(req: IncomingMessage): string {
    const peer = plain(req.socket.remoteAddress ?? '');
    if (!this.any) return peer;
    const hops = proxyAddr.all(req, this.#trust);
    const nearest = hops[hops.length - 1]!;
    return ipaddr.isValid(nearest) ? plain(nearest) : peer;
  }

  /** Whether the peer at this address is a trusted proxy. */
  trusts(address: string | undefined): boolean {
    return this.any && address !== undefined && this.#trust(address, 0);
  }
}

/** An address as it is counted and logged: an IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d. */
function plain(address: string): string {
  if (!address.startsWith('::ffff:') || !ipaddr.IPv6.isValid(address)) return address;
  const parsed = ipaddr.IPv6.parse(address);
  return parsed.isIPv4MappedAddress() ? parsed.toIPv4Address().toString() : address;
}

/**
 * What a per-client limit counts by: an IPv4 address, or an IPv6 address's /64 (one subscriber
 * is usually given a whole /64, and could otherwise take a new address per request).
 */
export function clientKey(address: string): string {
  if (!address.includes(':') || !ipaddr.IPv6.isValid(address)) return address;
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}
