/**
 * Peers that send X-Forwarded-For but are not in TRUSTED_PROXIES. Now and then that is a
 * visitor's own proxy; often it is our own edge or load balancer that nobody listed, and then
 * every visitor behind it has that one address: they share one budget of misses and one cap on
 * connections. It shows itself (decision 022): each such peer is logged once, with what to do,
 * counted (`forwarded_untrusted_total`) and listed on /status with its requests.
 */
import type { Logger } from '../observability/logger.js';

/** At most this many peers are kept and listed; past it only the count goes on. */
const MAX_PEERS = 100;

/** The one warning about a peer (with workers, written by their primary, once for the machine). */
export function warnUntrustedForwarder(log: Logger, address: string): void {
  log.warn(
    { peer: address },
    'requests from a peer not in TRUSTED_PROXIES carry X-Forwarded-For, which is ignored: if it is your edge or load balancer, every visitor behind it counts as this one address (one budget, one connection cap); add it to TRUSTED_PROXIES',
  );
}

export class UntrustedForwarders {
  readonly #requests = new Map<string, number>();

  /** `first` is told of each peer the first time it is seen: it warns, or asks the primary to. */
  constructor(private readonly first: (address: string) => void) {}

  /** Counts a request from the peer. */
  note(address: string): void {
    const seen = this.#requests.get(address);
    if (seen !== undefined) {
      this.#requests.set(address, seen + 1);
    } else if (this.#requests.size < MAX_PEERS) {
      this.#requests.set(address, 1);
      this.first(address);
    }
  }

  /** The peers and their requests, most first. */
  list(): [address: string, requests: number][] {
    return [...this.#requests].sort((a, b) => b[1] - a[1]);
  }
}
