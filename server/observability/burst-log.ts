/**
 * Once per burst: a limit hit by the same client a thousand times in a minute is one log line,
 * not a thousand (the metrics count every one). A key is logged again once it has been quiet
 * for the window.
 */
import { LRUCache } from 'lru-cache';

export class BurstLog {
  readonly #seen: LRUCache<string, true>;

  constructor(windowMs: number, max = 10_000) {
    this.#seen = new LRUCache({ max, ttl: windowMs, updateAgeOnHas: true });
  }

  /** True the first time a key comes up in a burst: log it then. */
  first(key: string): boolean {
    if (this.#seen.has(key)) return false;
    this.#seen.set(key, true);
    return true;
  }
}
