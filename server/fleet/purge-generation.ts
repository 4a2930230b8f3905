/**
 * How many purges this process has applied (decisions 018 and 033): one count for the caches that
 * keep what was made from content (answers, pages). Work reads it when it begins; what it made is
 * kept fresh only if no purge came since, since it may be what the purge was for (kept stale, or
 * not at all). A count, not a time: a clock set back, or a purge and a fetch in the same
 * millisecond, cannot order them wrongly.
 */
export class PurgeGeneration {
  #count = 0;

  /** A purge is being applied now. */
  mark(): void {
    this.#count++;
  }

  /** The generation now: read when a fetch or a render begins. */
  get now(): number {
    return this.#count;
  }

  /** True when a purge came after `generation` was read. */
  purgedSince(generation: number): boolean {
    return this.#count > generation;
  }
}
