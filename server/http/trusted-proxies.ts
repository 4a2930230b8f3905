/**
 * Which peers may speak for the client: a proxy or edge configured in TRUSTED_PROXIES (addresses
 * or CIDR ranges). Only what such a peer says (the client's address in X-Forwarded-For, the page
 * variant it chose) is believed; a header anyone else sends is ignored, since anyone can forge it.
 */
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP, isIPv4, SocketAddress } from 'node:net';

export class TrustedProxies {
  readonly #list = new BlockList();
  readonly any: boolean;

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, bits] = entry.split('/');
      const type = isIPv4(address!) ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.#list.addAddress(address!, type);
      else this.#list.addSubnet(address!, Number(bits), type);
    }
    this.any = entries.length > 0;
  }

  /**
   * The client's address: the peer's, or, when the peer is a trusted proxy, the last address in
   * X-Forwarded-For that is not one of ours (each proxy appends the address it saw, so anything
   * to the left of the first untrusted one may be made up by the client).
   */
  clientOf(req: IncomingMessage): string {
    const peer = plain(req.socket.remoteAddress ?? '');
    if (!this.trusts(peer)) return peer;
    const forwarded = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((h) => h.trim());
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = plain(hops[i]!);
      if (isIP(hop) && !this.trusts(hop)) return hop;
    }
    return peer;
  }

  /** Whether the peer at this address is a trusted proxy. */
  trusts(address: string | undefined): boolean {
    if (!this.any || !address) return false;
    const ip = plain(address);
    if (!isIP(ip)) return false;
    return this.#list.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
  }
}

/** An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d. */
const plain = (address: string) => (address.startsWith('::ffff:') ? address.slice(7) : address);

/**
 * What a per-client limit counts by: an IPv4 address, or an IPv6 address's /64 (one subscriber
 * is usually given a whole /64, and could otherwise take a new address per request).
 */
export function clientKey(address: string): string {
  if (!address.includes(':')) return address;
  const parsed = SocketAddress.parse(`[${address}]:0`);
  if (!parsed) return address;
  const groups = expandV6(parsed.address);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, `::` expanded. */
function expandV6(address: string): string[] {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}
