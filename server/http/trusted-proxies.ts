/**
 * Which peers may speak for the client: a proxy or edge configured in TRUSTED_PROXIES (addresses
 * or CIDR ranges). Only what such a peer says (the client's address in X-Forwarded-For, the page
 * variant it chose) is believed; a header anyone else sends is ignored, since anyone can forge it.
 */
import { BlockList, isIPv4 } from 'node:net';

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

  /** Whether the peer at this address is a trusted proxy. */
  trusts(address: string | undefined): boolean {
    if (!this.any || !address) return false;
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
    return this.#list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  }
}
