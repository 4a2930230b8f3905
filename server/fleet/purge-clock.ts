/**
 * When this process last applied a purge (decision 018): one clock for the caches that keep what
 * was made from content (answers, pages). Something fetched or rendered before a purge and kept
 * after it may be what the purge was for, so it is kept stale (answers) or not at all (pages).
 */
export class PurgeClock {
  #at = 0;

  /** A purge is being applied now. */
  mark(): void {
    this.#at = Date.now();
  }

  /** True when a purge came at or after `since` (epoch ms). */
  purgedSince(since: number): boolean {
    return this.#at >= since;
  }
}
