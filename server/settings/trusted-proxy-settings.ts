/**
 * TRUSTED_PROXIES, part of the one schema in config.ts: the proxies and edges in front, parsed
 * in this one place by proxy-addr (what Express's `trust proxy` uses, over ipaddr.js), when the
 * configuration is read and when the service is put together (http/trusted-proxies.ts).
 */
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';
import { commaList } from './setting-kinds.js';

/** proxy-addr's names for ranges of addresses. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Whether a peer (at `hop` steps from this process, 0 the socket's) is one of the trusted. */
export type TrustFunction = (address: string, hop: number) => boolean;

/**
 * The entries as proxy-addr's trust function; throws a TypeError naming the first entry that is
 * none of an address, a CIDR range (`/bits` or an IPv4 netmask) or a named range. ipaddr.js 1
 * also reads `10` or `0x0a.0.0.1` as IPv4 addresses, which nobody writes in a setting on purpose:
 * an address must be written out.
 */
export function compileTrust(entries: readonly string[]): TrustFunction {
  for (const entry of entries) {
    if (NAMED_RANGES.has(entry)) continue;
    const address = entry.includes('/') ? entry.slice(0, entry.lastIndexOf('/')) : entry;
    if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !(address.includes(':') && ipaddr.IPv6.isValid(address))) {
      throw new TypeError(`not an address written out: ${entry}`);
    }
  }
  return proxyAddr.compile([...entries]);
}

/** Why the entries cannot be trusted as written; undefined when they can. */
function trustProblem(entries: readonly string[]): string | undefined {
  try {
    compileTrust(entries);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

export const TRUSTED_PROXY_SETTINGS = {
  TRUSTED_PROXIES: commaList()
    .superRefine((entries, ctx) => {
      const problem = trustProblem(entries);
      if (problem)
        ctx.addIssue({ code: 'custom', message: `each entry must be an IP address, a CIDR range or a named range (${problem})` });
    })
    .optional()
    .describe(
      'comma-separated addresses or CIDR ranges of the proxies or edges in front, whose `X-Forwarded-For` and page variant are believed; `loopback`, `linklocal` and `uniquelocal` name those ranges, as in Express',
    ),
};
